import { isSameSitePath } from '@shop/shared';

/**
 * What a guest was doing when sent to sign in (add to cart, wishlist toggle), kept in a short-lived
 * httpOnly cookie so that it is carried out right after sign-in or sign-up.
 */
export type PendingIntent =
  | { type: 'cart'; productId: string; quantity: number; variantId?: string }
  | { type: 'wishlist'; productId: string };

export const INTENT_COOKIE = 'pending_intent';
const TEN_MINUTES = 10 * 60;
const PRODUCT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Only local paths (the route table's rule): an open redirect to another site is never followed. */
export function safeRedirectPath(value: unknown, fallback = '/'): string {
  return isSameSitePath(value) ? value : fallback;
}

export function parseQuantity(value: unknown, fallback = 1): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, 10_000) : fallback;
}

export function isProductId(value: unknown): value is string {
  return typeof value === 'string' && PRODUCT_ID.test(value);
}

export function encodeIntent(intent: PendingIntent): string {
  return Buffer.from(JSON.stringify(intent), 'utf8').toString('base64url');
}

export function decodeIntent(raw: string | undefined | null): PendingIntent | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<PendingIntent> & {
      quantity?: unknown;
    };
    if (!isProductId(value.productId)) return null;
    if (value.type === 'cart') {
      const variantId = (value as { variantId?: unknown }).variantId;
      return {
        type: 'cart',
        productId: value.productId,
        quantity: parseQuantity(value.quantity),
        ...(isProductId(variantId) ? { variantId } : {}),
      };
    }
    if (value.type === 'wishlist') return { type: 'wishlist', productId: value.productId };
    return null;
  } catch {
    return null;
  }
}

export function intentFromCookieHeader(header: string | null): PendingIntent | null {
  const match = new RegExp(`(?:^|;\\s*)${INTENT_COOKIE}=([^;]*)`).exec(header ?? '');
  return decodeIntent(match?.[1]);
}

export function intentCookie(intent: PendingIntent, secure = false): string {
  return `${INTENT_COOKIE}=${encodeIntent(intent)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${TEN_MINUTES}${secure ? '; Secure' : ''}`;
}

export function clearIntentCookie(): string {
  return `${INTENT_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`;
}

/** Why a guest is asked to sign in, said on the sign-in page ('wishlist': the heart needs an account). */
export const SIGN_IN_REASONS = ['wishlist'] as const;
export type SignInReason = (typeof SIGN_IN_REASONS)[number];

export function signInReasonOf(value: unknown): SignInReason | null {
  return SIGN_IN_REASONS.find((r) => r === value) ?? null;
}

/** The sign-in address that brings the guest back to `path` afterwards (with the reason to say, if any). */
export function signInPath(path: string, reason?: SignInReason): string {
  const back = `/signin?redirectTo=${encodeURIComponent(safeRedirectPath(path))}`;
  return reason ? `${back}&reason=${reason}` : back;
}
