import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { tap, type Observable } from 'rxjs';

/**
 * Public catalogue reads that are the same for every visitor. Browsers and CDNs may keep them for a
 * short while (a price change shows within a minute) and serve a stale copy while revalidating.
 * The server-side copy of the anonymous answers (pre-serialised, gzipped, strong ETags, invalidated
 * on changes) is the cache module's (apps/api/src/cache: answer-store.ts), which replays the headers set here.
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

@Injectable()
export class PublicCacheInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const route = (request.route as { path?: string } | undefined)?.path;
    if (request.method !== 'GET' || !route || !PUBLIC_CACHE_ROUTES.has(route)) return next.handle();
    const response = http.getResponse<Response>();
    return next.handle().pipe(tap(() => response.setHeader('Cache-Control', PUBLIC_CACHE_CONTROL)));
  }
}
