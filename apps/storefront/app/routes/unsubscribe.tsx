import {
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { Form, Link } from '../components/Localized';
import type { WishlistUnsubscribe } from '@shop/api-client';
import { isLanguage } from '@shop/i18n';
import { settle } from '../account/api.server';
import { FormError } from '../account/components';
import { reply } from '../account/reply.server';
import accountStyles from '../account.css?url';
import { languageCookie, languageFromCookie } from '../language';
import { titleMeta, useShop } from '../shop-context';
import { apiFor } from '../session.server';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: accountStyles }];
export const meta: MetaFunction = ({ matches }) => [
  titleMeta(matches, 'unsubscribe.title'),
  { name: 'robots', content: 'noindex' },
];

/** What the API answers about a link (GET/POST /api/wishlist/unsubscribe). */
type Unsubscribe = WishlistUnsubscribe;

type LoaderData = { token: string; state?: Unsubscribe; error?: string };
type ActionData = { state?: Unsubscribe; error?: string };

const TOKEN = /^[A-Za-z0-9._-]{1,200}$/;

/**
 * The unsubscribe link of a wishlist notice (no sign-in needed). Opening it only shows what it stops,
 * so mail scanners that open links change nothing; the button stops it. `lang` (from the message)
 * sets the page's language once, then the address is clean.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const lang = url.searchParams.get('lang');
  if (lang !== null) {
    url.searchParams.delete('lang');
    const headers: HeadersInit =
      isLanguage(lang) && languageFromCookie(request.headers.get('Cookie')) !== lang
        ? { 'Set-Cookie': languageCookie(lang) }
        : {};
    throw redirect(url.pathname + url.search, { headers });
  }
  const token = url.searchParams.get('token') ?? '';
  if (!TOKEN.test(token)) return reply<LoaderData>({ token: '', error: 'errors.UNSUBSCRIBE_INVALID' }, 400);
  const result = await settle(
    apiFor(request).GET('/api/wishlist/unsubscribe', { params: { query: { token } } }),
  );
  if (!result.ok)
    return reply<LoaderData>({ token, error: result.key || 'unsubscribe.failed' }, result.status);
  return reply<LoaderData>({ token, state: result.data });
}

export async function action({ request }: ActionFunctionArgs) {
  const token = String((await request.formData()).get('token') ?? '');
  if (!TOKEN.test(token)) return reply<ActionData>({ error: 'errors.UNSUBSCRIBE_INVALID' }, 400);
  const result = await settle(apiFor(request).POST('/api/wishlist/unsubscribe', { body: { token } }));
  if (!result.ok) return reply<ActionData>({ error: result.key || 'unsubscribe.failed' }, result.status);
  return reply<ActionData>({ state: result.data });
}

export default function UnsubscribePage() {
  const loaded = useLoaderData<typeof loader>() as LoaderData;
  const acted = useActionData<typeof action>() as ActionData | undefined;
  const { t, lang } = useShop();
  const busy = useNavigation().state === 'submitting';
  const state = acted?.state ?? loaded.state;
  const error = acted?.error ?? loaded.error;
  const product = state ? (lang === 'am' && state.product.nameAm) || state.product.name : '';
  const sale = state?.kind === 'sale';
  return (
    <section className="acc-auth">
      <h1>{t('unsubscribe.title')}</h1>
      <FormError text={error} />
      {state && !state.subscribed ? (
        <p className="acc-success" role="status">
          {t(sale ? 'unsubscribe.doneSale' : 'unsubscribe.doneStock', { product })}
        </p>
      ) : null}
      {state?.subscribed ? (
        <Form method="post" className="acc-form">
          <p>{t(sale ? 'unsubscribe.askSale' : 'unsubscribe.askStock', { product })}</p>
          <input type="hidden" name="token" value={loaded.token} />
          <button type="submit" className="button" disabled={busy}>
            {busy ? t('unsubscribe.busy') : t('unsubscribe.confirm')}
          </button>
        </Form>
      ) : null}
      <p>{t('unsubscribe.manage')}</p>
      <p>
        <Link to="/wishlist">{t('unsubscribe.toWishlist')}</Link>
      </p>
    </section>
  );
}
