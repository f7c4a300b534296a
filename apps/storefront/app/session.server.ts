import { createApiClient, type ApiClient } from '@shop/api-client';
import { env } from './env.server';
import { settle } from './account/api.server';

/**
 * The storefront session: the API's JWT kept in the storefront's own httpOnly cookie `token`
 * (DECISIONS.md: never in localStorage). Loaders and actions call the API with it as a Bearer token.
 */
export const TOKEN_COOKIE = 'token';
const WEEK_SECONDS = 7 * 24 * 60 * 60;

export function tokenFromRequest(request: Request): string | undefined {
  const match = /(?:^|;\s*)token=([^;]*)/.exec(request.headers.get('Cookie') ?? '');
  const value = match ? decodeURIComponent(match[1]) : '';
  return value || undefined;
}

/** True when the browser reached us over HTTPS (directly or through a proxy): only then is the cookie Secure. */
export function isHttps(request?: Request): boolean {
  if (!request) return process.env.NODE_ENV === 'production' && process.env.COOKIE_SECURE !== 'false';
  const proto = request.headers.get('X-Forwarded-Proto') ?? new URL(request.url).protocol.replace(':', '');
  return proto.split(',')[0].trim() === 'https';
}

export function sessionCookie(token: string, request?: Request): string {
  const secure = isHttps(request) ? '; Secure' : '';
  return `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${WEEK_SECONDS}${secure}`;
}

export function clearSessionCookie(): string {
  return `${TOKEN_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`;
}

/** A typed API client acting as the signed-in user of this request (or as a guest). */
export function apiFor(request: Request): ApiClient {
  return createApiClient({ baseUrl: env.apiUrl, token: tokenFromRequest(request) });
}

/** A typed API client acting with a token just obtained (sign-in), before the cookie reaches the browser. */
export function apiWithToken(token: string | undefined): ApiClient {
  return createApiClient({ baseUrl: env.apiUrl, token });
}

export interface SessionUser {
  _id: string;
  name: string;
  email: string;
  phone?: string;
  role: 'customer' | 'admin';
}

/** The signed-in user, or null for a guest or an expired token. */
export async function getSessionUser(request: Request): Promise<SessionUser | null> {
  const token = tokenFromRequest(request);
  if (!token) return null;
  const result = await settle<{ user?: SessionUser }>(apiWithToken(token).GET('/api/auth/me'));
  return result.ok ? (result.data.user ?? null) : null;
}
