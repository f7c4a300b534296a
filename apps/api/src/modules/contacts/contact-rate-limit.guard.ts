import { CanActivate, ExecutionContext, HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../config';

const WINDOW_MS = 60 * 60 * 1000;
/** Above this many tracked addresses, expired ones are swept so the map cannot grow without bound. */
const SWEEP_ABOVE = 10_000;

/**
 * Contact submissions per client IP per hour (CONTACT_RATE_LIMIT), a sliding window kept in memory:
 * one API process is the deployment unit, and a restart forgetting the counts is harmless.
 */
@Injectable()
export class ContactRateLimitGuard implements CanActivate {
  private readonly hits = new Map<string, number[]>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const ip = request.ip || request.socket.remoteAddress || 'unknown';
    const now = Date.now();
    if (this.hits.size > SWEEP_ABOVE) this.sweep(now);
    const recent = (this.hits.get(ip) ?? []).filter((at) => at > now - WINDOW_MS);
    if (recent.length >= this.config.contactRateLimit) {
      const retryAfterS = Math.max(1, Math.ceil((recent[0] + WINDOW_MS - now) / 1000));
      http.getResponse<Response>().setHeader('Retry-After', String(retryAfterS));
      this.hits.set(ip, recent);
      throw new HttpException('Too many messages sent, please try again later', HttpStatus.TOO_MANY_REQUESTS);
    }
    recent.push(now);
    this.hits.set(ip, recent);
    return true;
  }

  private sweep(now: number): void {
    for (const [ip, times] of this.hits) {
      if (!times.some((at) => at > now - WINDOW_MS)) this.hits.delete(ip);
    }
  }
}
