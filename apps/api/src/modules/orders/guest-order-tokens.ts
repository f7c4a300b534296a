import { Inject, Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../../config';

/** A guest's access to its order lasts this long after placement. */
export const GUEST_TOKEN_DAYS = 90;
const GUEST_TOKEN_MS = GUEST_TOKEN_DAYS * 24 * 60 * 60 * 1000;
/** 256 bits of HMAC-SHA256 as base64url. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The `guestAccessToken` of a guest's order (docs/decisions/0062-guest-checkout-and-order-lookup.md):
 * the HMAC-SHA256 of the order id under the server's secret, so nothing is stored, a replay of the
 * placement answers the same token, and it opens that one order only. It is accepted while the order
 * has no account and for GUEST_TOKEN_DAYS after the order was placed.
 */
@Injectable()
export class GuestOrderTokens {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  make(orderId: unknown): string {
    return createHmac('sha256', this.config.jwt.secret)
      .update(`guest-order:${String(orderId)}`)
      .digest('base64url');
  }

  /** Whether `token` opens this order: a guest's order, placed less than GUEST_TOKEN_DAYS ago, its own token. */
  accepts(
    order: { _id: unknown; user?: unknown; createdAt?: Date },
    token: string | undefined,
    now = Date.now(),
  ): boolean {
    if (!token || !TOKEN_PATTERN.test(token) || order.user) return false;
    const placed = order.createdAt ? new Date(order.createdAt).getTime() : NaN;
    if (!(placed + GUEST_TOKEN_MS > now)) return false;
    const expected = Buffer.from(this.make(order._id));
    const given = Buffer.from(token);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
