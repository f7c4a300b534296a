import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { finalize, from, lastValueFrom, of, tap, type Observable } from 'rxjs';

/**
 * Public catalogue reads that are the same for every visitor. Browsers and CDNs may keep them for a
 * short while (a price change shows within a minute) and serve a stale copy while revalidating;
 * Express's ETag turns a revalidation into a 304 without a body.
 */
export const PUBLIC_CACHE_ROUTES = new Set([
  '/api/products',
  '/api/products/:id',
  '/api/categories',
  '/api/reviews/recent',
  '/api/reviews/product/:id',
  '/api/settings/public',
]);

export const PUBLIC_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=300';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const MAX_ENTRIES = 2000;

export interface PublicCacheOptions {
  /**
   * Micro-cache: an anonymous public read is answered from memory for this long (0: off). Any write
   * handled by this process empties it at once, so a change made through the API shows on the next read;
   * changes made elsewhere (another instance, a script) show within this time.
   */
  microCacheMs: number;
}

interface Entry {
  body: unknown;
  expires: number;
}

interface Pending {
  promise: Promise<unknown>;
  generation: number;
}

@Injectable()
export class PublicCacheInterceptor implements NestInterceptor {
  private readonly entries = new Map<string, Entry>();
  /** Reads in progress: concurrent misses of one URL wait for the same database query (no stampede). */
  private readonly pending = new Map<string, Pending>();
  /** Bumped by every write: a read that started before a write must not store what it read. */
  private generation = 0;

  constructor(private readonly options: PublicCacheOptions = { microCacheMs: 0 }) {}

  private forget(): void {
    this.generation++;
    this.entries.clear();
    this.pending.clear();
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    if (!SAFE_METHODS.has(request.method)) {
      // Forget before the write (no new reads of old data are stored) and after it (reads that ran meanwhile).
      this.forget();
      return next.handle().pipe(finalize(() => this.forget()));
    }
    const route = (request.route as { path?: string } | undefined)?.path;
    if (request.method !== 'GET' || !route || !PUBLIC_CACHE_ROUTES.has(route)) return next.handle();
    const response = http.getResponse<Response>();
    const setHeader = () => response.setHeader('Cache-Control', PUBLIC_CACHE_CONTROL);

    const anonymous =
      !request.headers.authorization && !(request.cookies as Record<string, unknown> | undefined)?.token;
    if (!this.options.microCacheMs || !anonymous) return next.handle().pipe(tap(setHeader));

    const key = request.url;
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) {
      setHeader();
      return of(hit.body);
    }
    const running = this.pending.get(key);
    if (running && running.generation === this.generation) return from(running.promise).pipe(tap(setHeader));

    const generation = this.generation;
    const promise = lastValueFrom(next.handle());
    this.pending.set(key, { promise, generation });
    // Only successful answers are stored: errors go through the exception filter, for every waiter alike.
    promise
      .then(
        (body) => {
          if (generation !== this.generation) return;
          if (this.entries.size >= MAX_ENTRIES)
            this.entries.delete(this.entries.keys().next().value as string);
          this.entries.set(key, { body, expires: Date.now() + this.options.microCacheMs });
        },
        () => undefined,
      )
      .finally(() => {
        if (this.pending.get(key)?.promise === promise) this.pending.delete(key);
      });
    return from(promise).pipe(tap(setHeader));
  }
}
