import { toSantim, type OrderDiscount } from '@shop/shared';
import { say, type Said } from '../../apiMessages';
import { Form } from '../../components/Localized';
import { useShop } from '../../shop-context';
import { Money } from '../components';

/** The cart's coupon as the API answers it (docs/decisions/0096-coupon-codes.md). */
type CartCoupon = { coupon?: { code: string; kind?: string; value?: number }; couponProblem?: unknown };

/**
 * The pricing rule's discount (libs/shared priceOrder) of the cart's coupon; none when the cart has
 * none or the API says it gives nothing now (couponProblem).
 */
export function couponDiscount(cart: CartCoupon | null | undefined): OrderDiscount | undefined {
  const coupon = cart?.coupon;
  if (!coupon || cart?.couponProblem || coupon.value === undefined) return undefined;
  if (coupon.kind === 'percent') return { kind: 'percent', percent: coupon.value };
  if (coupon.kind === 'fixed') return { kind: 'fixed', amount: toSantim(coupon.value) };
  if (coupon.kind === 'freeShipping') return { kind: 'freeShipping' };
  return undefined;
}

/** The discount line of a summary (santim), shown when a code gives something. */
export function DiscountRow({ code, amount }: { code?: string | null; amount: number }) {
  const { t } = useShop();
  if (!code || amount <= 0) return null;
  return (
    <>
      <dt>{t('cart.discount', { code })}</dt>
      <dd data-testid="summary-discount">
        −<Money amount={amount / 100} />
      </dd>
    </>
  );
}

/**
 * The cart's code field: a plain form (works without JavaScript) that applies a code, or names the
 * applied one with a button to take it off; the API's refusal or problem in the page's language.
 */
export function CouponForm({
  applied,
  problem,
  typed,
  busy,
}: {
  applied?: string | null;
  problem?: Said | null;
  typed?: string;
  busy: boolean;
}) {
  const { t } = useShop();
  const said = problem ? say(t, problem, 'cart.couponFailed') : '';
  if (applied)
    return (
      <Form method="post" className="acc-coupon" data-testid="coupon-applied">
        <p role="status">{t('cart.couponApplied', { code: applied })}</p>
        {said ? <p className="acc-warning">{said}</p> : null}
        <button type="submit" name="intent" value="removeCoupon" className="acc-link-button" disabled={busy}>
          {t('cart.couponRemove')}
        </button>
      </Form>
    );
  return (
    <Form method="post" className="acc-coupon" data-testid="coupon-form">
      {said ? (
        <p className="acc-alert" role="alert">
          {said}
        </p>
      ) : null}
      <label className="acc-field">
        <span>{t('cart.couponLabel')}</span>
        <input
          name="code"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          defaultValue={typed}
          maxLength={64}
          required
        />
      </label>
      <button type="submit" name="intent" value="coupon" className="button" disabled={busy}>
        {t('cart.couponApply')}
      </button>
    </Form>
  );
}
