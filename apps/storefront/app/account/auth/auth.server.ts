import { redirect } from '@remix-run/node';
import {
  apiWithToken,
  clearSessionCookie,
  getSessionUser,
  isHttps,
  mergeGuestCart,
  tokenFromRequest,
  type SessionUser,
} from '../../session.server';
import { settle } from '../api.server';
import { env } from '../../env.server';
import {
  clearIntentCookie,
  intentCookie,
  intentFromCookieHeader,
  safeRedirectPath,
  signInPath,
  type PendingIntent,
} from './intent';

/** The back office's address; an admin who signs in goes to its dashboard. */
export const adminUrl = env.adminUrl;

/** The signed-in user, or a redirect of the guest to sign in with the way back remembered. */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) {
    const url = new URL(request.url);
    // An expired or revoked token is forgotten on the way (docs/product.md §8: a 401 ends the session).
    const headers: HeadersInit = tokenFromRequest(request) ? { 'Set-Cookie': clearSessionCookie() } : {};
    throw redirect(signInPath(url.pathname + url.search), { headers });
  }
  return user;
}

/** Sends a guest to sign in, remembering what they were doing. */
export function redirectGuestWithIntent(request: Request, intent: PendingIntent, returnTo: string) {
  return redirect(signInPath(returnTo, intent.type === 'wishlist' ? 'wishlist' : undefined), {
    headers: { 'Set-Cookie': intentCookie(intent, isHttps(request)) },
  });
}

/**
 * Carries out the remembered intent with the new session's token. Failures (e.g. out of stock) are
 * logged and do not stop the sign-in; the customer sees the cart or wishlist as it is.
 */
export async function carryOutPendingIntent(request: Request, token: string): Promise<string | null> {
  const intent = intentFromCookieHeader(request.headers.get('Cookie'));
  if (!intent) return null;
  const result =
    intent.type === 'cart'
      ? await settle(
          apiWithToken(token).POST('/api/cart/add', {
            // variantId: the contract of issue 30.3 (the generated client's body may not carry it yet)
            body: {
              productId: intent.productId,
              quantity: intent.quantity,
              ...(intent.variantId ? { variantId: intent.variantId } : {}),
            } as { productId: string; quantity: number },
          }),
        )
      : await settle(
          apiWithToken(token).POST('/api/wishlist/add/{productId}', {
            params: { path: { productId: intent.productId } },
            body: {},
          }),
        );
  if (!result.ok) console.error(`Pending ${intent.type} intent failed`, result.status, result.code);
  return clearIntentCookie();
}

/**
 * After a sign-in or sign-up of a customer: the guest cart joins the account's cart (its cookie is
 * forgotten), then the remembered intent is carried out. Answers where to go (with `cartNotice=capped`
 * when a merged quantity was cut to the stock) and the cookies to set.
 */
export async function afterSignIn(
  request: Request,
  token: string,
  headers: Headers,
  redirectTo: string,
): Promise<string> {
  const merged = await mergeGuestCart(request, token);
  if (merged.setCookie) headers.append('Set-Cookie', merged.setCookie);
  const cleared = await carryOutPendingIntent(request, token);
  if (cleared) headers.append('Set-Cookie', cleared);
  if (!merged.capped) return redirectTo;
  const target = new URL(redirectTo, 'http://shop.local');
  target.searchParams.set('cartNotice', 'capped');
  return target.pathname + target.search + target.hash;
}

/** The loader of the guest-only pages: a signed-in visitor goes to the back office (admins) or the remembered path. */
export async function guestOnly(request: Request): Promise<{ redirectTo: string; staffSignIn: string }> {
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get('redirectTo'));
  const user = await getSessionUser(request);
  if (user) throw redirect(user.role === 'admin' ? `${adminUrl}/dashboard` : redirectTo);
  // staff sign in (and register with the admin key) on the back office, never on the shop's forms
  return { redirectTo, staffSignIn: `${adminUrl}/login` };
}
