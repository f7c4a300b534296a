import {
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { Form, Link } from '../components/Localized';
import { priceOrder, toBirr, toSantim } from '@shop/shared';
import { CouponForm, couponDiscount, DiscountRow } from '../account/checkout/coupon';
import { settle } from '../account/api.server';
import { FormError, Money, TaxRow } from '../account/components';
import { isProductId, parseQuantity } from '../account/auth/intent';
import { loadPricing } from '../account/checkout/settings.server';
import type { Cart } from '@shop/api-client';
import { reply } from '../account/reply.server';
import { FALLBACK, apiError, noticeSaid, say, sayNotice, type Said } from '../apiMessages';
import accountStyles from '../account.css?url';
import { saleWords } from '../components/Price';
import { ShopImage } from '../components/ShopImage';
import { titleMeta, useShop } from '../shop-context';
import { apiFor, getSessionUser } from '../session.server';
import { VARIANT_ID, optionsText, type VariantLine } from '../variants';

type Line = Cart['products'][number] & VariantLine;
/** A line's price and stock: its variant's when it has one (issue 30.3). */
const lineUnit = (l: Line) => ({
  price: l.variant?.price ?? l.product.price,
  compareAtPrice: l.variant ? l.variant.compareAtPrice : l.product.compareAtPrice,
  promotion: l.variant ? l.variant.promotion : l.product.promotion,
  stock: l.variant?.countInStock ?? l.product.stock,
  image: l.variant?.images?.[0] ?? l.product.images?.[0],
});
/** The line's variant as a query (`?variantId=`) for update and remove; the contract's, not yet in the client's types. */
const lineParams = (productId: string, variantId: string | undefined) =>
  ({ path: { productId }, ...(variantId ? { query: { variantId } } : {}) }) as {
    path: { productId: string };
  };

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: accountStyles }];
export const meta: MetaFunction = ({ matches }) => [titleMeta(matches, 'cart.title')];

/** Guests have a cart too (held by the API under the id in the `cart_id` cookie); checkout asks them to sign in. */
export async function loader({ request }: LoaderFunctionArgs) {
  const [user, cart, pricing] = await Promise.all([
    getSessionUser(request),
    settle(apiFor(request).GET('/api/cart')),
    loadPricing(request),
  ]);
  return {
    user,
    cart: cart.ok ? cart.data : null,
    failed: !cart.ok,
    rates: pricing.rates,
    pricesIncludeTax: pricing.pricesIncludeTax,
    capped: new URL(request.url).searchParams.get('cartNotice') === 'capped',
    notices: cart.ok ? (cart.data.notices ?? []).map((n) => noticeSaid(n, 'cart')) : [],
    couponProblem:
      cart.ok && cart.data.couponProblem ? apiError(cart.data.couponProblem, 'cart.couponFailed') : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const intent = form.get('intent');
  const productId = form.get('productId');
  if (intent === 'coupon') {
    const code = String(form.get('code') ?? '').trim();
    if (!code) return reply({ couponError: { key: 'errors.COUPON_NOT_FOUND' } satisfies Said }, 400);
    const result = await settle(apiFor(request).POST('/api/cart/coupon', { body: { code } }));
    return result.ok
      ? redirect('/cart')
      : reply({ couponError: apiError(result, 'cart.couponFailed'), code }, result.status);
  }
  if (intent === 'removeCoupon') {
    const result = await settle(apiFor(request).DELETE('/api/cart/coupon'));
    return result.ok
      ? redirect('/cart')
      : reply({ couponError: apiError(result, 'cart.couponFailed') }, result.status);
  }
  if (intent === 'clear') {
    const result = await settle(apiFor(request).DELETE('/api/cart/clear'));
    return result.ok
      ? redirect('/cart')
      : reply({ error: apiError(result, 'cart.clearFailed') }, result.status);
  }
  if (!isProductId(productId)) return reply({ error: { key: FALLBACK.updateCart } satisfies Said }, 400);
  const variantField = form.get('variantId');
  const variantId =
    typeof variantField === 'string' && VARIANT_ID.test(variantField) ? variantField : undefined;
  if (intent === 'remove') {
    const result = await settle(
      apiFor(request).DELETE('/api/cart/remove/{productId}', { params: lineParams(productId, variantId) }),
    );
    return result.ok
      ? redirect('/cart')
      : reply({ error: apiError(result, 'cart.removeFailed') }, result.status);
  }
  const quantity = parseQuantity(form.get('quantity'), 0);
  if (quantity < 1) return reply({ error: { key: FALLBACK.updateCart } satisfies Said }, 400);
  const result = await settle(
    apiFor(request).PATCH('/api/cart/update/{productId}', {
      params: lineParams(productId, variantId),
      body: { quantity },
    }),
  );
  return result.ok
    ? redirect('/cart')
    : reply({ error: apiError(result, FALLBACK.updateCart) }, result.status);
}

export default function Cart() {
  const { user, cart, failed, rates, pricesIncludeTax, capped, notices, couponProblem } =
    useLoaderData<typeof loader>();
  const data = useActionData<{ error?: Said; couponError?: Said; code?: string }>();
  const { t, lang } = useShop();
  const busy = useNavigation().state !== 'idle';
  if (failed || !cart)
    return (
      <section className="acc-page">
        <h1>{t('cart.title')}</h1>
        <p className="acc-alert" role="alert">
          {t('cart.fetchFailed')} <Link to=".">{t('cart.retry')}</Link>
        </p>
      </section>
    );
  if (cart.products.length === 0) {
    return (
      <section className="acc-page acc-empty">
        <h1>{t('cart.title')}</h1>
        {notices.map((n, i) => (
          <p key={i} className="acc-alert">
            {sayNotice(t, n)}
          </p>
        ))}
        <p>{t('cart.empty')}</p>
        <Link className="button" to="/products">
          {t('cart.startShopping')}
        </Link>
      </section>
    );
  }
  const totals = priceOrder(
    (cart.products as Line[]).map((l) => ({ unitPrice: toSantim(lineUnit(l).price), quantity: l.quantity })),
    'standard',
    rates,
    pricesIncludeTax,
    couponDiscount(cart),
  );
  return (
    <section className="acc-page">
      <h1>{t('cart.title')}</h1>
      <FormError text={say(t, data?.error, FALLBACK.updateCart)} />
      {capped ? (
        <p className="acc-alert" role="status" data-testid="merge-capped">
          {t('cart.mergeCapped')}
        </p>
      ) : null}
      {notices.map((n, i) => (
        <p key={i} className="acc-alert">
          {sayNotice(t, n)}
        </p>
      ))}
      <div className="acc-two-columns">
        <ul className="acc-lines">
          {(cart.products as Line[]).map((line) => {
            const { product, quantity, variant } = line;
            const name = (lang === 'am' && product.nameAm) || product.name;
            const unit = lineUnit(line);
            const variantId = variant?._id ?? line.variantId;
            const variantWords = variant ? optionsText(variant.options, lang, product.options) : '';
            return (
              <li key={`${product._id}-${variantId ?? ''}`} className="acc-line" data-testid="cart-line">
                {unit.image ? (
                  <ShopImage src={unit.image} alt="" width={80} height={80} place="line" />
                ) : null}
                <div className="acc-line-main">
                  <Link to={`/product/${product._id}${variantId ? `?variant=${variantId}` : ''}`}>
                    <strong>{name}</strong>
                  </Link>
                  {variantWords ? (
                    <>
                      {' — '}
                      <span className="line-variant" data-testid="line-variant">
                        {variantWords}
                      </span>
                    </>
                  ) : null}
                  <p className="acc-muted">
                    <Money amount={unit.price} /> {t('cart.each')}
                    {unit.promotion && unit.compareAtPrice && unit.compareAtPrice > unit.price ? (
                      <>
                        {' '}
                        <s>
                          <span className="sr-only">{t('product.originalPrice')} </span>
                          <Money amount={unit.compareAtPrice} />
                        </s>{' '}
                        <small className="sale-until" data-testid="sale-until">
                          {saleWords(unit.promotion, lang, t)}
                        </small>
                      </>
                    ) : null}
                  </p>
                  {unit.stock < quantity || unit.stock <= 5 ? (
                    <p className="acc-warning">{t('cart.onlyLeft', { count: unit.stock })}</p>
                  ) : null}
                  <Form method="post" className="acc-stepper" aria-label={t('cart.quantity')}>
                    <input type="hidden" name="productId" value={product._id} />
                    {variantId ? <input type="hidden" name="variantId" value={variantId} /> : null}
                    <input type="hidden" name="intent" value="update" />
                    <button
                      type="submit"
                      name="quantity"
                      value={quantity - 1}
                      disabled={busy || quantity <= 1}
                      aria-label={t('cart.decrease')}
                    >
                      −
                    </button>
                    <output data-testid="cart-quantity">{quantity}</output>
                    <button
                      type="submit"
                      name="quantity"
                      value={quantity + 1}
                      disabled={busy || quantity >= unit.stock}
                      aria-label={t('cart.increase')}
                    >
                      +
                    </button>
                  </Form>
                </div>
                <div className="acc-line-side">
                  <strong data-testid="line-total">
                    <Money amount={toBirr(toSantim(unit.price) * quantity)} />
                  </strong>
                  <Form method="post">
                    <input type="hidden" name="productId" value={product._id} />
                    {variantId ? <input type="hidden" name="variantId" value={variantId} /> : null}
                    <button
                      type="submit"
                      name="intent"
                      value="remove"
                      className="acc-link-button"
                      disabled={busy}
                    >
                      {t('cart.remove')}
                    </button>
                  </Form>
                </div>
              </li>
            );
          })}
        </ul>
        <aside className="acc-summary" aria-label={t('cart.summary')}>
          <h2>{t('cart.summary')}</h2>
          <dl>
            <dt>{t('cart.subtotal')}</dt>
            <dd data-testid="summary-subtotal">
              <Money amount={toBirr(totals.subtotal)} />
            </dd>
            <DiscountRow code={cart.coupon?.code} amount={totals.discount} />
            <dt>{t('cart.shipping')}</dt>
            <dd>
              {totals.shippingCost === 0 ? t('cart.free') : <Money amount={toBirr(totals.shippingCost)} />}
            </dd>
            <TaxRow amount={toBirr(totals.tax)} included={pricesIncludeTax} />
            <dt>{t('cart.total')}</dt>
            <dd data-testid="summary-total">
              <strong>
                <Money amount={toBirr(totals.totalAmount)} />
              </strong>
            </dd>
          </dl>
          <CouponForm
            applied={cart.coupon?.code}
            problem={data?.couponError ?? couponProblem}
            typed={data?.code}
            busy={busy}
          />
          <p className="acc-muted">{t('cart.shippingNote')}</p>
          <Link className="button" to="/checkout">
            {t('cart.checkout')}
          </Link>
          {!user ? <p className="acc-muted">{t('cart.guestCheckoutNote')}</p> : null}
        </aside>
      </div>
    </section>
  );
}
