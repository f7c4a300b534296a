import { LineVariant } from '../account/orders/OrderDetails';
import { optionsText, type VariantLine } from '../variants';
import {
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { Form, Link } from '../components/Localized';
import {
  ETHIOPIAN_REGIONS,
  SHIPPING_METHODS,
  codAllowed,
  findEthiopianRegion,
  formatMoney,
  priceOrder,
  regionName,
  toBirr,
  toSantim,
  type ShippingMethod,
} from '@shop/shared';
import { useState } from 'react';
import {
  apiFor,
  apiForGuestOrder,
  cartIdFromRequest,
  getSessionUser,
  orderTokenCookie,
  payingOrderCookie,
} from '../session.server';
import { settle } from '../account/api.server';
import { Field, Money, PaymentMethods, TaxRow, message } from '../account/components';
import { couponDiscount, DiscountRow } from '../account/checkout/coupon';
import { HostedForm } from '../account/payment/HostedForm';
import { FormErrors } from '../components/FormErrors';
import { paymentDestination } from '../account/payment/payment.server';
import { loadPricing } from '../account/checkout/settings.server';
import { checkoutPayment, validateGuest, type CheckoutPayment } from '../account/checkout/guest';
import type { CartLine, PaymentInit } from '@shop/api-client';

type VariantCartLine = CartLine & VariantLine;
import { validateAddress } from '../account/addresses/validation';
import { hasErrors, serverFieldErrors, type FieldErrors } from '../account/forms';
import { reply } from '../account/reply.server';
import { FALLBACK, apiError, say, type Said } from '../apiMessages';
import accountStyles from '../account.css?url';
import { pageLanguage } from '../language';
import { titleMeta, useShop } from '../shop-context';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: accountStyles }];
export const meta: MetaFunction = ({ matches }) => [titleMeta(matches, 'checkout.title')];

const KEY = /^[A-Za-z0-9-]{16,64}$/;
/** Checkout as a guest: the signed-out shopper chose 'Continue as guest' (a link, so no JavaScript is needed). */
const GUEST_PATH = '/checkout?guest=1';

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getSessionUser(request);
  const [cart, pricing, addresses] = await Promise.all([
    settle(apiFor(request).GET('/api/cart')),
    loadPricing(request),
    user ? settle(apiFor(request).GET('/api/users/addresses')) : Promise.resolve(null),
  ]);
  const saved = addresses?.ok ? (addresses.data.addresses ?? []) : [];
  const url = new URL(request.url);
  const chosen = url.searchParams.get('address');
  const prefill = saved.find((a) => String(a.id) === chosen) ?? saved[0] ?? null;
  // One key per rendering of the form: a double click or a resubmit never places a second order.
  return {
    guest: !user,
    /** a signed-out shopper who chose to continue as a guest: the form asks for name, phone and email */
    guestForm: !user && url.searchParams.get('guest') === '1',
    profilePhone: user?.phone ?? '',
    cart: cart.ok ? cart.data : null,
    failed: !cart.ok,
    rates: pricing.rates,
    pricesIncludeTax: pricing.pricesIncludeTax,
    cashOnDelivery: pricing.cashOnDelivery,
    saved,
    prefill,
    capped: url.searchParams.get('cartNotice') === 'capped',
    idempotencyKey: crypto.randomUUID(),
  };
}

type ActionData = {
  fieldErrors: FieldErrors;
  formError: Said | null;
  values: Record<string, string>;
  idempotencyKey: string;
  hostedForm?: PaymentInit['hostedForm'];
  orderId?: string;
};

export async function action({ request }: ActionFunctionArgs) {
  const user = await getSessionUser(request);
  // a guest orders from the guest cart (its id in the cart_id cookie); without one there is nothing to order
  if (!user && !cartIdFromRequest(request)) throw redirect('/cart');
  const form = await request.formData();
  const submittedKey = String(form.get('idempotencyKey') ?? '');
  const idempotencyKey = KEY.test(submittedKey) ? submittedKey : crypto.randomUUID();
  const method = (SHIPPING_METHODS as readonly string[]).includes(String(form.get('shippingMethod')))
    ? (String(form.get('shippingMethod')) as ShippingMethod)
    : 'standard';
  const paymentMethod = checkoutPayment(form.get('paymentMethod'));
  const { input, errors: addressErrors } = validateAddress(form);
  const guestCheck = user ? null : validateGuest(form, input.phone);
  const errors = { ...addressErrors, ...(guestCheck?.errors ?? {}) };
  const values: Record<string, string> = {
    ...input,
    ...(guestCheck ? { name: guestCheck.input.name, email: guestCheck.input.email ?? '' } : {}),
    shippingMethod: method,
    paymentMethod,
    saveAddress: form.get('saveAddress') ? 'on' : '',
  };
  const fail = (status: number, data: Partial<ActionData>) =>
    reply({ fieldErrors: {}, formError: null, values, idempotencyKey, ...data }, status);
  if (hasErrors(errors)) return fail(400, { fieldErrors: errors });

  const placed = await settle(
    apiFor(request).POST('/api/orders', {
      body: {
        shippingAddress: input,
        paymentMethod,
        shippingMethod: method,
        ...(guestCheck ? { guest: guestCheck.input } : {}),
        // the page's language: the order's messages use it when the account chose none (a guest's always)
        language: pageLanguage(request),
      },
      headers: { 'Idempotency-Key': idempotencyKey },
    }),
  );
  if (!placed.ok || !placed.data?.order?._id) {
    const status = placed.ok ? 502 : placed.status;
    // pay on delivery refused (region or total outside the settings): the form comes back on Chapa
    const refusedCod = !placed.ok && placed.code === 'COD_UNAVAILABLE';
    return reply(
      {
        fieldErrors: placed.ok ? {} : serverFieldErrors(placed.errors),
        formError: placed.ok ? { key: FALLBACK.createOrder } : apiError(placed, FALLBACK.createOrder),
        values: refusedCod ? { ...values, paymentMethod: 'chapa' } : values,
        idempotencyKey: refusedCod ? crypto.randomUUID() : idempotencyKey,
      },
      status,
    );
  }
  const orderId = placed.data.order._id;
  const headers = new Headers();
  // a guest's order opens with its access token: kept in an httpOnly cookie, never shown to script
  const guestToken = user ? undefined : placed.data.guestAccessToken;
  const tokenCookie = guestToken ? orderTokenCookie(orderId, guestToken, request) : undefined;
  if (tokenCookie) headers.append('Set-Cookie', tokenCookie);
  if (user && form.get('saveAddress')) {
    const saved = await settle(apiFor(request).POST('/api/users/addresses', { body: input }));
    if (!saved.ok) console.error('Saving the checkout address failed', saved.status, saved.code);
  }
  // pay on delivery: the order is confirmed at once; nothing to pay online
  if (paymentMethod === 'cash_on_delivery')
    return redirect(`/order-confirmation/${encodeURIComponent(orderId)}`, { headers });

  const api = guestToken ? apiForGuestOrder(request, orderId, guestToken) : apiFor(request);
  const init = await settle((api ?? apiFor(request)).POST('/api/payments/initialize', { body: { orderId } }));
  const destination = init.ok ? paymentDestination(init.data, orderId) : null;
  if (!destination) {
    console.error(
      'Payment initialisation failed',
      init.ok ? 'no destination' : `${init.status} ${init.code ?? ''}`,
    );
    // the API's code travels with the redirect; the confirmation page words it (or the generic text)
    const code = !init.ok && init.code ? `&code=${encodeURIComponent(init.code)}` : '';
    return redirect(`/order-confirmation/${encodeURIComponent(orderId)}?payment=failed${code}`, { headers });
  }
  // the payment pages of a guest verify with this order's token
  if (guestToken) headers.append('Set-Cookie', payingOrderCookie(orderId, request));
  if ('redirect' in destination) return redirect(destination.redirect, { headers });
  return reply(
    {
      fieldErrors: {},
      formError: null,
      values,
      idempotencyKey,
      hostedForm: destination.hostedForm,
      orderId,
    },
    200,
    headers,
  );
}

/**
 * A signed-out shopper at checkout: continue as a guest (a link to the guest form), or sign in here
 * with a password or a phone code, or create an account; the cart is kept either way.
 */
function GuestChoice() {
  const { t } = useShop();
  const back = '/checkout';
  return (
    <section className="acc-page">
      <h1>{t('checkout.title')}</h1>
      <p>{t('checkout.signInToContinue')}</p>
      <div className="acc-two-columns checkout-choice">
        <div className="acc-form" data-testid="guest-choice">
          <h2>{t('checkout.guestTitle')}</h2>
          <p>{t('checkout.guestExplain')}</p>
          <Link className="button" to={GUEST_PATH} data-testid="continue-as-guest">
            {t('checkout.continueAsGuest')}
          </Link>
        </div>
        <div className="acc-form">
          <Form method="post" action={`/signin?redirectTo=${encodeURIComponent(back)}`} className="acc-form">
            <h2>{t('auth.signIn')}</h2>
            <input type="hidden" name="redirectTo" value={back} />
            <input type="hidden" name="role" value="customer" />
            <Field name="email" type="email" label={t('auth.email')} autoComplete="email" />
            <Field
              name="password"
              type="password"
              label={t('auth.password')}
              autoComplete="current-password"
            />
            <p className="acc-forgot">
              <Link to="/forgot-password">{t('recover.forgotLink')}</Link>
            </p>
            <button type="submit" className="button">
              {t('auth.signIn')}
            </button>
          </Form>
          <p>
            <Link to={`/signin/phone?redirectTo=${encodeURIComponent(back)}`} data-testid="use-phone">
              {t('otp.usePhone')}
            </Link>
          </p>
          <p>
            {t('checkout.newCustomer')}{' '}
            <Link to={`/signup?redirectTo=${encodeURIComponent(back)}`}>{t('auth.signUp')}</Link>
          </p>
          <p className="acc-muted">{t('checkout.cartKept')}</p>
        </div>
      </div>
    </section>
  );
}

/** The payment step: Chapa, and pay on delivery only where the settings allow it for this region and total. */
function PaymentChoice({
  payment,
  onChange,
  codOffered,
  codReason,
  total,
}: {
  payment: CheckoutPayment;
  onChange: (p: CheckoutPayment) => void;
  codOffered: boolean;
  codReason: string | null;
  total: number;
}) {
  const { t, lang } = useShop();
  return (
    <fieldset className="acc-methods checkout-payment" data-testid="payment-choice">
      <legend>{t('checkout.paymentTitle')}</legend>
      <label>
        <input
          type="radio"
          name="paymentMethod"
          value="chapa"
          checked={payment === 'chapa'}
          onChange={() => onChange('chapa')}
        />{' '}
        {t('checkout.payWithChapa')}
      </label>
      <PaymentMethods />
      {codOffered ? (
        <label data-testid="cod-option">
          <input
            type="radio"
            name="paymentMethod"
            value="cash_on_delivery"
            checked={payment === 'cash_on_delivery'}
            onChange={() => onChange('cash_on_delivery')}
          />{' '}
          {t('checkout.payOnDelivery')}
          <small className="acc-muted checkout-cod-ready" data-testid="cod-ready">
            {' '}
            {t('checkout.codReady', { amount: formatMoney(toBirr(total), 'ETB', lang) })}
          </small>
        </label>
      ) : codReason ? (
        <p className="acc-muted" data-testid="cod-unavailable">
          {codReason}
        </p>
      ) : null}
    </fieldset>
  );
}

export default function Checkout() {
  const loaded = useLoaderData<typeof loader>();
  const { cart, failed, rates, pricesIncludeTax, cashOnDelivery, saved, prefill, idempotencyKey, capped } =
    loaded;
  const data = useActionData<ActionData>();
  const { t, lang } = useShop();
  const busy = useNavigation().state !== 'idle';
  const [chosen, setChosen] = useState<ShippingMethod | null>(null);
  const [regionChoice, setRegionChoice] = useState<string | null>(null);
  const [paymentChoice, setPaymentChoice] = useState<CheckoutPayment | null>(null);
  if (data?.hostedForm) return <HostedForm hostedForm={data.hostedForm} />;
  if (loaded.guest && !loaded.guestForm && cart && cart.products.length > 0) return <GuestChoice />;
  if (failed || !cart)
    return (
      <section className="acc-page">
        <h1>{t('checkout.title')}</h1>
        <p className="acc-alert" role="alert">
          {t('cart.fetchFailed')} <Link to=".">{t('cart.retry')}</Link>
        </p>
      </section>
    );
  if (cart.products.length === 0) {
    return (
      <section className="acc-page acc-empty">
        <h1>{t('checkout.title')}</h1>
        <p>{t('checkout.emptyCart')}</p>
        <Link className="button" to="/products">
          {t('cart.startShopping')}
        </Link>
      </section>
    );
  }
  const values: Record<string, string> =
    data?.values ??
    ({
      ...(prefill ?? {}),
      phone: prefill?.phone || loaded.profilePhone,
      country: prefill?.country || 'Ethiopia',
      shippingMethod: 'standard',
      paymentMethod: 'chapa',
    } as unknown as Record<string, string>);
  const method = chosen ?? ((values.shippingMethod as ShippingMethod) || 'standard');
  // a line's unit price: its variant's when it has one (issue 30.3)
  const lines = (cart.products as VariantCartLine[]).map((l) => ({
    unitPrice: toSantim(l.variant?.price ?? l.product.price),
    quantity: l.quantity,
  }));
  const discount = couponDiscount(cart);
  const totals = priceOrder(lines, method, rates, pricesIncludeTax, discount);
  const region = regionChoice ?? findEthiopianRegion(values.state)?.en ?? '';
  // Pay on delivery is offered only where the API would accept it (the shared rule); with no region
  // chosen yet it is offered with the regions it covers, and the API has the last word.
  const codSomewhere =
    cashOnDelivery.enabled &&
    cashOnDelivery.regions.length > 0 &&
    totals.totalAmount <= toSantim(cashOnDelivery.maxOrderTotal);
  const codOffered = region ? codAllowed(cashOnDelivery, region, totals.totalAmount) : codSomewhere;
  const codReason = !cashOnDelivery.enabled
    ? null
    : totals.totalAmount > toSantim(cashOnDelivery.maxOrderTotal)
      ? t('checkout.codOverMax', { max: formatMoney(cashOnDelivery.maxOrderTotal, 'ETB', lang) })
      : region && !codOffered
        ? t('checkout.codNotInRegion', {
            region: regionName(region, lang),
            regions: cashOnDelivery.regions.map((r) => regionName(r, lang)).join(lang === 'am' ? '፣ ' : ', '),
          })
        : null;
  const wanted = paymentChoice ?? checkoutPayment(values.paymentMethod);
  const payment: CheckoutPayment = wanted === 'cash_on_delivery' && !codOffered ? 'chapa' : wanted;
  const key = data?.idempotencyKey ?? idempotencyKey;
  return (
    <section className="acc-page">
      <h1>{t('checkout.title')}</h1>
      {capped ? (
        <p className="acc-alert" role="status">
          {t('cart.mergeCapped')}
        </p>
      ) : null}
      <div className="acc-two-columns checkout-layout">
        <Form method="post" noValidate className="acc-form" id="checkout-form">
          <input type="hidden" name="idempotencyKey" value={key} />
          {/* the refusal already in words (a key would be worded 'Something went wrong') and each field's error */}
          <FormErrors
            answer={data}
            formText={data?.formError ? say(t, data.formError, FALLBACK.createOrder) : null}
            fieldErrors={
              data?.fieldErrors.state && !/^(checkout|errors)\./.test(data.fieldErrors.state)
                ? { ...data.fieldErrors, state: 'checkout.stateInvalid' }
                : data?.fieldErrors
            }
          />
          {loaded.guestForm ? (
            <>
              <h2>{t('checkout.guestDetails')}</h2>
              <p className="acc-muted">
                {t('checkout.guestHaveAccount')}{' '}
                <Link to={`/signin?redirectTo=${encodeURIComponent('/checkout')}`}>{t('auth.signIn')}</Link>
              </p>
              <Field
                name="name"
                label={t('auth.name')}
                autoComplete="name"
                defaultValue={values.name}
                error={data?.fieldErrors.name}
              />
              <Field
                name="email"
                type="email"
                label={t('checkout.emailOptional')}
                autoComplete="email"
                required={false}
                defaultValue={values.email}
                hint={t('checkout.emailHint')}
                error={data?.fieldErrors.email}
              />
            </>
          ) : null}
          <h2>{t('checkout.shippingAddress')}</h2>
          {saved.length > 0 ? (
            <nav className="acc-saved" aria-label={t('checkout.savedAddresses')}>
              <p>{t('checkout.savedAddresses')}</p>
              <ul>
                {saved.map((a) => (
                  <li key={String(a.id)}>
                    <Link to={`?address=${a.id}`} replace data-testid="saved-address">
                      {[a.street, a.landmark, a.city, regionName(a.state, lang), a.zipCode]
                        .filter(Boolean)
                        .join(', ')}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          <div key={JSON.stringify(prefill)}>
            <Field
              name="phone"
              type="tel"
              label={t('checkout.phone')}
              autoComplete="tel"
              defaultValue={values.phone}
              hint={loaded.guestForm ? t('checkout.guestPhoneHint') : t('checkout.phoneHint')}
              error={data?.fieldErrors.phone ?? data?.fieldErrors['shippingAddress.phone']}
            />
            <label className="acc-field">
              <span>{t('checkout.region')}</span>
              <select
                id="field-state"
                name="state"
                defaultValue={findEthiopianRegion(values.state)?.en ?? ''}
                required
                autoComplete="address-level1"
                aria-invalid={data?.fieldErrors.state ? true : undefined}
                aria-describedby={data?.fieldErrors.state ? 'state-error' : undefined}
                onChange={(e) => setRegionChoice(e.currentTarget.value)}
              >
                <option value="">{t('checkout.chooseRegion')}</option>
                {ETHIOPIAN_REGIONS.map((r) => (
                  <option key={r.code} value={r.en}>
                    {lang === 'am' ? r.am : r.en}
                  </option>
                ))}
              </select>
              {data?.fieldErrors.state ? (
                <small id="state-error" className="acc-error" role="alert">
                  {t(
                    /^(checkout|errors)\./.test(data.fieldErrors.state)
                      ? data.fieldErrors.state
                      : 'checkout.stateInvalid',
                  )}
                </small>
              ) : null}
            </label>
            <Field
              name="city"
              label={t('checkout.city')}
              autoComplete="address-level2"
              defaultValue={values.city}
              error={data?.fieldErrors.city}
            />
            <Field
              name="street"
              label={t('checkout.street')}
              autoComplete="street-address"
              defaultValue={values.street}
              error={data?.fieldErrors.street}
            />
            <Field
              name="landmark"
              label={t('checkout.landmark')}
              required={false}
              defaultValue={values.landmark}
              hint={t('checkout.landmarkHint')}
              error={data?.fieldErrors.landmark}
            />
            <Field
              name="zipCode"
              label={t('checkout.zipCodeOptional')}
              autoComplete="postal-code"
              required={false}
              defaultValue={values.zipCode}
              error={data?.fieldErrors.zipCode}
            />
            {/* Delivery is only within Ethiopia: the country is submitted as a hidden value and shown translated. */}
            <input type="hidden" name="country" value="Ethiopia" />
            <p className="acc-muted">
              {t('checkout.country')}: <strong>{t('checkout.ethiopia')}</strong> — {t('checkout.countryHint')}
            </p>
            {data?.fieldErrors.country ? (
              <p className="acc-error" role="alert">
                {message(t, data.fieldErrors.country)}
              </p>
            ) : null}
          </div>
          {loaded.guest ? null : (
            <label className="acc-check">
              <input type="checkbox" name="saveAddress" defaultChecked={values.saveAddress === 'on'} />{' '}
              {t('checkout.saveAddress')}
            </label>
          )}
          <fieldset className="acc-methods">
            <legend>{t('checkout.shippingMethod')}</legend>
            {SHIPPING_METHODS.map((m) => {
              const cost = priceOrder(lines, m, rates, pricesIncludeTax, discount).shippingCost;
              return (
                <label key={m}>
                  <input
                    type="radio"
                    name="shippingMethod"
                    value={m}
                    checked={m === method}
                    onChange={() => setChosen(m)}
                  />{' '}
                  {t(`checkout.methods.${m}`)} —{' '}
                  {cost === 0 ? t('cart.free') : <Money amount={toBirr(cost)} />}
                </label>
              );
            })}
          </fieldset>
          <PaymentChoice
            payment={payment}
            onChange={setPaymentChoice}
            codOffered={codOffered}
            codReason={codReason}
            total={totals.totalAmount}
          />
          {codOffered && !region ? (
            <p className="acc-muted" data-testid="cod-regions">
              {t('checkout.codRegions', {
                regions: cashOnDelivery.regions
                  .map((r) => regionName(r, lang))
                  .join(lang === 'am' ? '፣ ' : ', '),
              })}
            </p>
          ) : null}
        </Form>
        {/* Phones: the summary (collapsible) comes before the pay button, which belongs to the form above. */}
        <details className="acc-summary checkout-summary" open>
          <summary>
            <h2>{t('checkout.summary')}</h2>
            <span className="checkout-summary-total">
              <Money amount={toBirr(totals.totalAmount)} />
            </span>
          </summary>
          <ul className="acc-summary-lines">
            {(cart.products as VariantCartLine[]).map(({ product, quantity, variant }) => (
              <li key={`${product._id}-${variant?._id ?? ''}`}>
                <span>
                  {(lang === 'am' && product.nameAm) || product.name}
                  <LineVariant
                    text={variant ? optionsText(variant.options, lang, product.options) : ''}
                  /> × {quantity}
                </span>{' '}
                <span className="acc-money">
                  <Money amount={toBirr(toSantim(variant?.price ?? product.price) * quantity)} />
                </span>
              </li>
            ))}
          </ul>
          <dl>
            <dt>{t('cart.subtotal')}</dt>
            <dd>
              <Money amount={toBirr(totals.subtotal)} />
            </dd>
            <DiscountRow code={cart.coupon?.code} amount={totals.discount} />
            <dt>{t('cart.shipping')}</dt>
            <dd>
              {totals.shippingCost === 0 ? t('cart.free') : <Money amount={toBirr(totals.shippingCost)} />}
            </dd>
            <TaxRow amount={toBirr(totals.tax)} included={pricesIncludeTax} />
            <dt>{t('cart.total')}</dt>
            <dd data-testid="checkout-total">
              <strong>
                <Money amount={toBirr(totals.totalAmount)} />
              </strong>
            </dd>
          </dl>
          <p className="acc-muted">{t('checkout.summaryNote')}</p>
        </details>
        <button type="submit" form="checkout-form" className="button acc-pay checkout-pay" disabled={busy}>
          {busy
            ? t('checkout.placing')
            : payment === 'cash_on_delivery'
              ? t('checkout.placeOrder')
              : t('checkout.payNow')}
        </button>
      </div>
    </section>
  );
}
