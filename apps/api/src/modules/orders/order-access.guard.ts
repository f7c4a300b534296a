import { CanActivate, ExecutionContext, Inject, Injectable, createParamDecorator } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { AuthUser } from '../../common/auth/auth-user';
import { csrfPolicyOf, refuseCrossSiteCookieWrite, type CsrfPolicy } from '../../common/auth/csrf';
import { SessionLookup, sessionToken } from '../../common/auth/session';
import { DomainError } from '../../common/errors/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config';
import { CART_ID_COOKIE, guestCartIdFrom } from '../cart/cart-owner.guard';

/** The header a guest's order token comes in. */
export const ORDER_TOKEN_HEADER = 'x-order-token';

/** Who asks for an order: a signed-in user, or a guest with an order's token or its cart. */
export interface OrderViewer {
  user?: AuthUser;
  /** The X-Order-Token the request carries (a guest's order). */
  orderToken?: string;
  /** The guest cart the request places its order from (POST /api/orders without a token). */
  guestCartId?: string;
}

type ViewerRequest = Request & { user?: AuthUser; orderViewer?: OrderViewer };

/** The OrderViewer the guards of this file attached. */
export const CurrentViewer = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): OrderViewer =>
    ctx.switchToHttp().getRequest<ViewerRequest>().orderViewer ?? {},
);

const authRequired = () =>
  new DomainError('UNAUTHORIZED', 'Authentication required', undefined, 'AUTH_REQUIRED');

/**
 * The session's user when the request carries a token (an invalid one is a 401, as everywhere), the
 * CSRF checks of a cookie session's write included.
 */
async function signedIn(
  request: ViewerRequest,
  sessions: SessionLookup,
  csrf: CsrfPolicy,
): Promise<AuthUser | undefined> {
  const session = sessionToken(request);
  if (!session) return undefined;
  if (session.from === 'cookie') refuseCrossSiteCookieWrite(request, csrf);
  const user = await sessions.userFromToken(session.token);
  if (!user) throw new DomainError('UNAUTHORIZED', 'Invalid or expired token', undefined, 'INVALID_TOKEN');
  request.user = user;
  return user;
}

/**
 * An order route open to its owner (a token, as JwtAuthGuard admits) or to a guest holding the
 * order's `X-Order-Token`; with neither, 401 as before. Whether the token opens the order asked for
 * is the service's check (another order's token: 404, as for a stranger).
 */
@Injectable()
export class OrderAccessGuard implements CanActivate {
  private readonly csrf: CsrfPolicy;

  constructor(
    private readonly sessions: SessionLookup,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.csrf = csrfPolicyOf(config);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ViewerRequest>();
    context.switchToHttp().getResponse<Response>().setHeader('Cache-Control', 'no-store');
    const user = await signedIn(request, this.sessions, this.csrf);
    const header = request.headers[ORDER_TOKEN_HEADER];
    const orderToken = typeof header === 'string' && header.trim() ? header.trim().slice(0, 200) : undefined;
    if (!user && !orderToken) throw authRequired();
    request.orderViewer = { user, orderToken };
    return true;
  }
}

/**
 * Placing an order: a signed-in user (its cart), or a guest with its guest cart (`X-Cart-Id`, or the
 * `cartId` cookie, then with the CSRF checks of a cookie write); with neither, 401 as before.
 */
@Injectable()
export class OrderPlacerGuard implements CanActivate {
  private readonly csrf: CsrfPolicy;

  constructor(
    private readonly sessions: SessionLookup,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.csrf = csrfPolicyOf(config);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ViewerRequest>();
    context.switchToHttp().getResponse<Response>().setHeader('Cache-Control', 'no-store');
    const user = await signedIn(request, this.sessions, this.csrf);
    if (user) {
      request.orderViewer = { user };
      return true;
    }
    const guestCartId = guestCartIdFrom(request);
    if (!guestCartId) throw authRequired();
    const fromCookie = typeof request.headers['x-cart-id'] !== 'string';
    if (fromCookie && (request.cookies as Record<string, unknown> | undefined)?.[CART_ID_COOKIE])
      refuseCrossSiteCookieWrite(request, this.csrf);
    request.orderViewer = { guestCartId };
    return true;
  }
}
