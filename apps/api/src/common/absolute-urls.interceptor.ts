import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { map, type Observable } from 'rxjs';

/**
 * Image URLs (docs/product.md §7): the database keeps the API's own image paths relative
 * (`/api/assets/...`, `/api/uploads/...`) so that the public origin can change; every answer
 * carries them absolute, built from PUBLIC_API_URL, so that a client served from any origin can
 * show them. A client that sends such an absolute URL back (an edited product) has it stored
 * relative again. One place for both directions: this interceptor, outside every other one, so
 * that cached bodies stay relative and ETags are computed on what is sent. The decision:
 * docs/decisions/0012-spec-clients-work-unchanged.md.
 */
const OWN_IMAGE_PATH = /^\/api\/(assets|uploads)\//;

const isPlainObject = (value: object): boolean => {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/** A copy of `value` with `rewrite` applied to every string inside, read as JSON.stringify would. */
function mapStrings(value: unknown, rewrite: (text: string) => string, depth = 0): unknown {
  if (typeof value === 'string') return rewrite(value);
  if (value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, rewrite, depth + 1));
  if (Buffer.isBuffer(value)) return value;
  if (!isPlainObject(value)) {
    const toJSON = (value as { toJSON?: () => unknown }).toJSON;
    // Dates and ObjectIds become strings, documents their plain form: exactly what would be sent
    return typeof toJSON === 'function' ? mapStrings(toJSON.call(value), rewrite, depth + 1) : value;
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = mapStrings(item, rewrite, depth + 1);
  return out;
}

/** `/api/uploads/a.png` -> `https://api.example.et/api/uploads/a.png`; anything else unchanged. */
export function absoluteImageUrls(body: unknown, publicUrl: string): unknown {
  const origin = publicUrl.replace(/\/+$/, '');
  return mapStrings(body, (text) => absoluteImageUrl(text, origin));
}

/** One string as `absoluteImageUrls` rewrites it, `origin` being PUBLIC_API_URL without a trailing slash. */
export function absoluteImageUrl(text: string, origin: string): string {
  return text.charCodeAt(0) === 47 /* / */ && OWN_IMAGE_PATH.test(text) ? `${origin}${text}` : text;
}

/**
 * Answers whose image URLs were made absolute where they were built (the public catalogue's product
 * views, from stored documents in one pass): the interceptor sends them as they are instead of
 * walking and copying every string again. Mark only answers built entirely that way.
 */
const ALREADY_ABSOLUTE = new WeakSet<object>();

export function withAbsoluteUrls<T extends object>(answer: T): T {
  ALREADY_ABSOLUTE.add(answer);
  return answer;
}

/** The inverse, for input: this API's own absolute image URLs are stored as their relative path. */
export function relativeImageUrls(body: unknown, publicUrl: string): unknown {
  const origin = publicUrl.replace(/\/+$/, '');
  return mapStrings(body, (text) =>
    text.startsWith(origin) && OWN_IMAGE_PATH.test(text.slice(origin.length))
      ? text.slice(origin.length)
      : text,
  );
}

@Injectable()
export class AbsoluteUrlsInterceptor implements NestInterceptor {
  constructor(private readonly publicUrl: string) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<Request>();
    const body: unknown = request.body;
    if (body && typeof body === 'object' && (Array.isArray(body) || isPlainObject(body)))
      request.body = relativeImageUrls(body, this.publicUrl);
    return next
      .handle()
      .pipe(
        map((answer) =>
          answer !== null &&
          typeof answer === 'object' &&
          !ALREADY_ABSOLUTE.has(answer) &&
          (Array.isArray(answer) || isPlainObject(answer))
            ? absoluteImageUrls(answer, this.publicUrl)
            : answer,
        ),
      );
  }
}
