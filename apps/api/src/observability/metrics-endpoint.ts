import type { NextFunction, Request, Response } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AppConfig } from '../config';
import type { ShopMetrics } from './metrics';

export const METRICS_PATH = '/api/metrics';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The Bearer token of the request equals `token` (compared in constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  if (typeof header !== 'string' || !/^Bearer /i.test(header)) return false;
  return timingSafeEqual(digest(header.slice(7).trim()), digest(token));
}

/**
 * Who may read the metrics (docs/decisions/0074-metrics.md): anyone presenting METRICS_TOKEN as a
 * Bearer token; without it, in development and tests only, a client on this machine talking to the
 * API directly (the socket's own address, not X-Forwarded-For: a proxy on this machine forwarding
 * the world does not make the world local). In production without the token: nobody.
 */
export function metricsAllowed(
  config: Pick<AppConfig, 'nodeEnv' | 'metricsToken'>,
  req: Pick<Request, 'headers' | 'socket'>,
): boolean {
  if (config.metricsToken && bearerMatches(req.headers.authorization, config.metricsToken)) return true;
  if (config.nodeEnv === 'production') return false;
  return (
    LOOPBACK.test(req.socket.remoteAddress ?? '') &&
    req.headers['x-forwarded-for'] === undefined &&
    req.headers.forwarded === undefined
  );
}

/**
 * GET /api/metrics as an Express route (so its requests are timed under their own template). A
 * caller who may not read it goes on to the 404 of an unknown route: the answer does not tell that
 * the metrics exist.
 */
export function metricsHandler(config: AppConfig, metrics: ShopMetrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!metricsAllowed(config, req)) return next();
    metrics.text().then(
      (text) => {
        res.setHeader('Content-Type', metrics.contentType);
        res.setHeader('Cache-Control', 'no-store');
        res.end(text);
      },
      (error: unknown) => next(error),
    );
  };
}
