import { Inject, Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../../config';
import type { WishlistNoticeKind } from './notification-events';

/** The signed links in wishlist notices that stop one kind of notice for one product, without signing in. */
@Injectable()
export class UnsubscribeTokens {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** A signed, non-expiring token that stops one kind of wishlist notice for one product. */
  make(userId: string, productId: string, kind: WishlistNoticeKind): string {
    const payload = `${userId}.${productId}.${kind}`;
    const mac = createHmac('sha256', this.config.jwt.secret)
      .update(`unsubscribe:${payload}`)
      .digest('base64url');
    return `${payload}.${mac}`;
  }

  /** Reads an unsubscribe token; null when it was not made by this shop. */
  read(token: string): { userId: string; productId: string; kind: WishlistNoticeKind } | null {
    const match = /^([a-f0-9]{24})\.([a-f0-9]{24})\.(sale|stock)\.([A-Za-z0-9_-]{43})$/.exec(token ?? '');
    if (!match) return null;
    const expected = Buffer.from(this.make(match[1], match[2], match[3] as 'sale').split('.')[3]);
    const given = Buffer.from(match[4]);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    return { userId: match[1], productId: match[2], kind: match[3] as WishlistNoticeKind };
  }
}
