import { useEffect, useState } from 'react';
import {
  ORDER_STATUS_COLORS,
  formatMoney,
  isPayOnDelivery,
  passwordScore,
  passwordStrengthLabel,
  type OrderStatus,
} from '@shop/shared';
import { useShop } from '../shop-context';
import { isKnownKey, type Translate as T } from '../apiMessages';
import { formatDate as formatDateIn, formatGregorianDate, type DateTexts } from '../dates';

/**
 * The text of a message key (one of our i18n keys: a page's own, or an API code's `errors.<CODE>`, so
 * the server's message shows in the shopper's language). Anything else is a generic text.
 */
export function message(
  t: T,
  text: string | undefined | null,
  params?: Record<string, string | number>,
): string {
  if (!text) return '';
  // an order's status among the values (e.g. CANNOT_CANCEL's) is said in the page's language
  const status = params?.status !== undefined ? `orders.statuses.${params.status}` : '';
  const worded = status && t(status) !== status ? { ...params, status: t(status) } : params;
  // only keys are worded: a text that is not one (an API's English message) is never shown as is
  return isKnownKey(text, t) ? t(text, worded) : t('errors.somethingWrong');
}

export function Field({
  name,
  label,
  error,
  type = 'text',
  defaultValue,
  required = true,
  autoComplete,
  onChange,
  readOnly,
  hint,
}: {
  name: string;
  label: string;
  error?: string;
  type?: string;
  defaultValue?: string;
  required?: boolean;
  autoComplete?: string;
  onChange?: (value: string) => void;
  /** Shown but not editable; still submitted with the form (unlike `disabled`). */
  readOnly?: boolean;
  /** A short explanation under the field. */
  hint?: string;
}) {
  const { t } = useShop();
  const errorId = `${name}-error`;
  const hintId = `${name}-hint`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <label className="acc-field">
      <span>{label}</span>
      <input
        id={`field-${name}`}
        name={name}
        type={type}
        defaultValue={defaultValue}
        required={required}
        autoComplete={autoComplete}
        readOnly={readOnly}
        aria-readonly={readOnly || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={onChange ? (e) => onChange(e.currentTarget.value) : undefined}
      />
      {hint ? (
        <small id={hintId} className="acc-muted">
          {hint}
        </small>
      ) : null}
      {error ? (
        <small id={errorId} className="acc-error" role="alert">
          {message(t, error)}
        </small>
      ) : null}
    </label>
  );
}

export function FormError({ text }: { text?: string | null }) {
  const { t } = useShop();
  if (!text) return null;
  return (
    <p className="acc-alert" role="alert">
      {message(t, text)}
    </p>
  );
}

/** The live strength label of docs/product.md §5 (very weak .. very strong). */
export function PasswordStrength({ password }: { password: string }) {
  const { t } = useShop();
  if (!password) return null;
  const score = passwordScore(password);
  const label = passwordStrengthLabel(score);
  const key = {
    'very weak': 'veryWeak',
    weak: 'weak',
    medium: 'medium',
    strong: 'strong',
    'very strong': 'veryStrong',
  }[label];
  return (
    <p className={`acc-strength acc-strength-${score}`} data-testid="password-strength" aria-live="polite">
      {t('auth.strength')}: <strong>{t(`auth.strengths.${key}`)}</strong>
    </p>
  );
}

export function StatusBadge({ status }: { status: OrderStatus }) {
  const { t } = useShop();
  const colour = ORDER_STATUS_COLORS[status] ?? 'grey';
  return (
    <span className={`acc-status acc-status-${colour}`} data-status={status} data-colour={colour}>
      {t(`orders.statuses.${status}`)}
    </span>
  );
}

export function Money({ amount }: { amount: number }) {
  const { lang } = useShop();
  return <>{formatMoney(amount, 'ETB', lang)}</>;
}

export function Spinner({ label }: { label: string }) {
  return (
    <div className="acc-spinner" role="status" aria-live="polite">
      <span className="acc-spinner-wheel" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

/** A toast that closes itself after 3 s (docs/product.md §9); without JavaScript it simply stays. */
export function Toast({ kind, text, stamp }: { kind: 'success' | 'error'; text: string; stamp?: unknown }) {
  const [open, setOpen] = useState(true);
  useEffect(() => {
    setOpen(true);
    const timer = setTimeout(() => setOpen(false), 3000);
    return () => clearTimeout(timer);
  }, [text, stamp]);
  if (!open) return null;
  return (
    <div className={`acc-toast acc-toast-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      <span>{text}</span>
      <button type="button" onClick={() => setOpen(false)} aria-label="×">
        ×
      </button>
    </div>
  );
}

/** The order's short human number (`AN-10042`); orders from before numbers existed show their id's end. */
export function orderNumberOf(order: { _id: string; orderNumber?: string }): string {
  return order.orderNumber ?? `#${order._id.slice(-6).toUpperCase()}`;
}

export function OrderNumber({ order }: { order: { _id: string; orderNumber?: string } }) {
  return <span data-testid="order-number">{orderNumberOf(order)}</span>;
}

const PAYMENT_COLOURS: Record<string, string> = {
  paid: 'green',
  unpaid: 'yellow',
  failed: 'red',
  refund_pending: 'purple',
  refunded: 'grey',
};

/** The payment state beside the order status: Paid, Awaiting payment, Payment failed, Refund pending, Refunded. */
export function PaymentBadge({ status, method }: { status?: string; method?: string }) {
  const { t } = useShop();
  const state = status && status in PAYMENT_COLOURS ? status : 'unpaid';
  const colour = PAYMENT_COLOURS[state];
  // an unpaid pay-on-delivery order is not waiting for an online payment: it is paid to the rider
  const label = state === 'unpaid' && isPayOnDelivery(method) ? 'onDelivery' : state;
  return (
    <span
      className={`acc-status acc-status-${colour}`}
      data-testid="payment-state"
      data-payment-status={state}
    >
      {t(`orders.paymentStates.${label}`)}
    </span>
  );
}

/**
 * A date in the page's language: in Amharic the Ethiopian calendar with the Gregorian date as
 * secondary text (and tooltip), in English the Gregorian date. One convention on every page.
 */
export function DateText({ iso, texts }: { iso: string; texts?: DateTexts }) {
  const { lang } = useShop();
  // `texts`: formatted by the server in the page's language (dates.ts, dateTexts)
  const primary = texts?.primary ?? formatDateIn(iso, lang);
  if (lang !== 'am') return <time dateTime={iso}>{primary}</time>;
  // the Gregorian date in Amharic words (month names, era mark): secondary text and tooltip
  const gregorian = texts?.gregorian || formatGregorianDate(iso, 'am');
  return (
    <time dateTime={iso} title={gregorian} data-testid="ethiopian-date">
      {primary}{' '}
      <small className="acc-muted" data-testid="gregorian-date">
        ({gregorian})
      </small>
    </time>
  );
}

/** The tax line: VAT added on top (the default) or the VAT contained in VAT-inclusive prices. */
export function TaxRow({ amount, included }: { amount: number; included: boolean }) {
  const { t } = useShop();
  return (
    <>
      <dt data-testid="tax-label">{included ? t('cart.taxIncluded') : t('cart.taxAdded')}</dt>
      <dd>
        <Money amount={amount} />
      </dd>
    </>
  );
}

/** The accepted payment methods, as text badges (no external images). */
export function PaymentMethods() {
  const { t } = useShop();
  return (
    <div className="acc-pay-methods" data-testid="payment-methods">
      <p>{t('checkout.acceptedMethods')}</p>
      <ul>
        {['telebirr', 'CBE Birr', 'M-Pesa', t('checkout.cards')].map((m) => (
          <li key={m} className="acc-pay-badge">
            {m}
          </li>
        ))}
      </ul>
      <p className="acc-muted">{t('checkout.viaChapa')}</p>
    </div>
  );
}
