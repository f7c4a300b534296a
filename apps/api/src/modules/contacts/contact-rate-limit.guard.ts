import { CanActivate, ExecutionContext, HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RateCounters } from '../../common/rate-limit';
import { APP_CONFIG, type AppConfig } from '../../config';

const WINDOW_MS = 60 * 60 * 1000;

/**
 * Contact submissions per client IP per hour (CONTACT_RATE_LIMIT), counted in the database
 * (RateCounters) so that every API instance counts together.
 */
@Injectable()
export class ContactRateLimitGuard implements CanActivate {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly counters: RateCounters,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const ip = request.ip || request.socket.remoteAddress || 'unknown';
    const { count, resetInMs } = await this.counters.hit(`contact:${ip}`, WINDOW_MS);
    if (count > this.config.contactRateLimit) {
      http.getResponse<Response>().setHeader('Retry-After', String(Math.max(1, Math.ceil(resetInMs / 1000))));
      throw new HttpException('Too many messages sent, please try again later', HttpStatus.TOO_MANY_REQUESTS);
    }
    return true;
  }
}
