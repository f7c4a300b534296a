import type { Request } from 'express';
import type { AppConfig } from '../../config';
import { DomainError } from '../errors/domain-error';

/**
 * Cross-site request forgery defence for cookie-authenticated writes (docs/decisions/0014-sessions.md).
 * A Bearer token cannot be sent by another site, so Bearer calls (the storefront's server, apps,
 * integrators) are never affected. For the `token` cookie, which a browser attaches by itself:
 * - a write whose Origin (or, without one, Referer) is not one of ours is refused (403
 *   ORIGIN_NOT_ALLOWED): ours are CORS_ORIGINS, the storefront's origin and the API's own;
 * - a write whose body is form-encoded or text (the bodies another site can post without CORS) is
 *   refused (415 UNSUPPORTED_MEDIA_TYPE): the API's forms are JSON;
 * - a multipart write (image uploads) must carry an Origin or Referer of ours.
 */
export interface CsrfPolicy {
  /** Allowed origins; null when CORS_ORIGINS is `*` (development only: config refuses it in production). */
  origins: Set<string> | null;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const SIMPLE_BODY = /^(application\/x-www-form-urlencoded|text\/plain)\b/i;
const MULTIPART = /^multipart\/form-data\b/i;

function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

export function csrfPolicyOf(
  config: Pick<AppConfig, 'corsOrigins' | 'storefrontUrl' | 'publicUrl'>,
): CsrfPolicy {
  if (config.corsOrigins.includes('*')) return { origins: null };
  const origins = [...config.corsOrigins, config.storefrontUrl, config.publicUrl]
    .map(originOf)
    .filter((o): o is string => !!o);
  return { origins: new Set(origins) };
}

function refuse(
  type: 'FORBIDDEN' | 'UNSUPPORTED_MEDIA_TYPE',
  message: string,
  code: 'ORIGIN_NOT_ALLOWED' | 'UNSUPPORTED_MEDIA_TYPE',
): never {
  throw new DomainError(type, message, undefined, code);
}

/** Throws when a cookie-authenticated write may come from another site; reads pass. */
export function refuseCrossSiteCookieWrite(request: Request, policy: CsrfPolicy): void {
  if (!WRITE_METHODS.has(request.method)) return;
  const origin = originOf(request.headers.origin) ?? originOf(request.headers.referer);
  if (origin && policy.origins && !policy.origins.has(origin))
    refuse('FORBIDDEN', 'This request comes from a site that is not allowed', 'ORIGIN_NOT_ALLOWED');
  // a write without a body is no form post (react-admin's DELETE says text/plain and sends nothing)
  const hasBody =
    Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
  if (!hasBody) return;
  const type = request.headers['content-type'] ?? '';
  if (SIMPLE_BODY.test(type))
    refuse(
      'UNSUPPORTED_MEDIA_TYPE',
      'Send the request body as JSON (Content-Type: application/json)',
      'UNSUPPORTED_MEDIA_TYPE',
    );
  if (MULTIPART.test(type) && !origin && policy.origins)
    refuse('FORBIDDEN', 'This request comes from a site that is not allowed', 'ORIGIN_NOT_ALLOWED');
}
