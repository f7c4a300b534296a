import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData, useNavigation, useSubmit } from '@remix-run/react';
import { Form, Link } from '../components/Localized';
import { apiFor } from '../session.server';
import { settle } from '../account/api.server';
import { requireUser } from '../account/auth/auth.server';
import { Toast } from '../account/components';
import { Price } from '../components/Price';
import { isProductId } from '../account/auth/intent';
import type { Wishlist } from '@shop/api-client';
import { reply } from '../account/reply.server';
import { FALLBACK, apiError, noticeSaid, say, sayNotice, type Said } from '../apiMessages';
import accountStyles from '../account.css?url';
import { ShopImage } from '../components/ShopImage';
import { titleMeta, useShop } from '../shop-context';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: accountStyles }];
export const meta: MetaFunction = ({ matches }) => [titleMeta(matches, 'wishlist.title')];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const result = await settle(apiFor(request).GET('/api/wishlist'));
  // Lines of products withdrawn since the last visit are dropped by the API, which says so.
  return {
    lines: result.ok ? result.data.products : null,
    notices: result.ok ? (result.data.notices ?? []).map((n) => noticeSaid(n, 'wishlist')) : [],
  };
}

type Toasted = { ok: boolean; message: Said };

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const form = await request.formData();
  const intent = form.get('intent');
  const productId = form.get('productId');
  const toast = (ok: boolean, said: Said | string, status = 200) =>
    reply({ ok, message: typeof said === 'string' ? { key: said } : said } satisfies Toasted, status);
  if (!isProductId(productId)) return toast(false, 'wishlist.operationFailed', 400);
  if (intent === 'move') {
    const result = await settle(
      apiFor(request).POST('/api/wishlist/move-to-cart/{productId}', {
        params: { path: { productId } },
        body: { quantity: 1 },
      }),
    );
    return result.ok
      ? toast(true, 'wishlist.moved')
      : toast(false, apiError(result, FALLBACK.moveToCart), result.status);
  }
  if (intent === 'remove') {
    const result = await settle(
      apiFor(request).DELETE('/api/wishlist/remove/{productId}', { params: { path: { productId } } }),
    );
    return result.ok
      ? toast(true, 'wishlist.removed')
      : toast(false, apiError(result, 'wishlist.removeFailed'), result.status);
  }
  if (intent === 'preferences') {
    const body = {
      notifyOnSale: form.get('notifyOnSale') === 'on',
      notifyOnStock: form.get('notifyOnStock') === 'on',
    };
    const result = await settle(
      apiFor(request).PATCH('/api/wishlist/notifications/{productId}', {
        params: { path: { productId } },
        body,
      }),
    );
    return result.ok
      ? toast(true, 'wishlist.preferencesUpdated')
      : toast(false, apiError(result, 'wishlist.preferencesFailed'), result.status);
  }
  return toast(false, 'wishlist.operationFailed', 400);
}

export default function Wishlist() {
  const { lines, notices } = useLoaderData<typeof loader>();
  const data = useActionData<Toasted>();
  const { t, lang } = useShop();
  const submit = useSubmit();
  const busy = useNavigation().state !== 'idle';
  return (
    <section className="acc-page">
      <h1>{t('wishlist.title')}</h1>
      {data ? (
        <Toast
          kind={data.ok ? 'success' : 'error'}
          text={say(t, data.message, FALLBACK.wishlist)}
          stamp={data}
        />
      ) : null}
      {notices.map((n, i) => (
        <p key={i} className="acc-alert">
          {sayNotice(t, n)}
        </p>
      ))}
      {lines === null ? (
        <p className="acc-alert" role="alert">
          {t('wishlist.fetchFailed')} <Link to=".">{t('cart.retry')}</Link>
        </p>
      ) : lines.length === 0 ? (
        <div className="acc-empty">
          <p>{t('wishlist.empty')}</p>
          <Link className="button" to="/products">
            {t('cart.startShopping')}
          </Link>
        </div>
      ) : (
        <ul className="acc-wishlist">
          {lines.map(({ product, notifyOnSale, notifyOnStock }) => (
            <li key={product._id} className="card acc-wish-card" data-testid="wishlist-card">
              {product.images?.[0] ? (
                <ShopImage src={product.images[0]} alt="" width={200} height={200} place="card" />
              ) : null}
              <Link to={`/product/${product._id}`}>
                <strong>{(lang === 'am' && product.nameAm) || product.name}</strong>
              </Link>
              <Price
                price={product.price}
                originalPrice={product.originalPrice}
                badge={false}
                sale={product.promotion}
              />
              {product.stock === 0 ? (
                <p>
                  <span className="acc-warning">{t('wishlist.outOfStock')}</span>
                </p>
              ) : null}
              <Form
                method="post"
                className="acc-prefs"
                onChange={(e) => submit(e.currentTarget, { preventScrollReset: true })}
              >
                <input type="hidden" name="productId" value={product._id} />
                <input type="hidden" name="intent" value="preferences" />
                <label className="acc-check">
                  <input type="checkbox" name="notifyOnSale" defaultChecked={!!notifyOnSale} />{' '}
                  {t('wishlist.notifyOnSale')}
                </label>
                <label className="acc-check">
                  <input type="checkbox" name="notifyOnStock" defaultChecked={!!notifyOnStock} />{' '}
                  {t('wishlist.notifyOnStock')}
                </label>
                <noscript>
                  <button type="submit">{t('wishlist.savePreferences')}</button>
                </noscript>
              </Form>
              <Form method="post" className="acc-actions">
                <input type="hidden" name="productId" value={product._id} />
                <button
                  type="submit"
                  name="intent"
                  value="move"
                  className="button"
                  disabled={busy || product.stock === 0}
                >
                  {t('wishlist.moveToCart')}
                </button>
                <button
                  type="submit"
                  name="intent"
                  value="remove"
                  className="acc-link-button"
                  disabled={busy}
                >
                  {t('wishlist.remove')}
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
