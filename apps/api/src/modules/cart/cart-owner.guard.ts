import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { AuthUser } from '../../common/auth/auth-user';
import { SessionLookup, tokenFrom } from '../../common/auth/session';
import { DomainError } from '../../common/errors/domain-error';
import type { CartOwner } from './cart-store';

/** The header and cookie that carry a guest cart's id. */
export const CART_ID_HEADER = 'x-cart-id';
export const CART_ID_COOKIE = 'cartId';
/** 128 random bits as 32 lowercase hex characters. */
export const GUEST_CART_ID_PATTERN = /^[a-f0-9]{32}$/;

export type CartRequest = Request & { user?: AuthUser; guestCartId?: string };

/** The cart of a request that passed CartOwnerGuard: the signed-in user's id, or its guest cart (undefined: none yet). */
export function cartOwnerOf(req: CartRequest): CartOwner | undefined {
  if (req.user) return req.user.id;
  return req.guestCartId ? { guestId: req.guestCartId } : undefined;
}

/** The guest cart id a request carries (header first, then cookie), if it is well formed. */
export function guestCartIdFrom(request: Request): string | undefined {
  const header = request.headers[CART_ID_HEADER];
  const cookie = (request.cookies as Record<string, unknown> | undefined)?.[CART_ID_COOKIE];
  const value = typeof header === 'string' && header ? header : cookie;
  if (typeof value !== 'string') return undefined;
  const id = value.trim().toLowerCase();
  return GUEST_CART_ID_PATTERN.test(id) ? id : undefined;
}

/**
 * The cart's owner: the signed-in user when a token comes with the request (an invalid token is still
 * a 401, as on every other route), otherwise a guest, identified by the cart id it holds (or none yet).
 */
@Injectable()
export class CartOwnerGuard implements CanActivate {
  constructor(private readonly sessions: SessionLookup) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<CartRequest>();
    const token = tokenFrom(request);
    if (token) {
      const user = await this.sessions.userFromToken(token);
      if (!user)
        throw new DomainError('UNAUTHORIZED', 'Invalid or expired token', undefined, 'INVALID_TOKEN');
      request.user = user;
    } else {
      request.guestCartId = guestCartIdFrom(request);
    }
    return true;
  }
}
