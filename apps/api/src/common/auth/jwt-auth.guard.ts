import {
  applyDecorators,
  CanActivate,
  ExecutionContext,
  Inject,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { DomainError } from '../errors/domain-error';
import { ErrorDto } from '../error.dto';
import type { AuthUser } from './auth-user';
import { csrfPolicyOf, refuseCrossSiteCookieWrite, type CsrfPolicy } from './csrf';
import { SessionLookup, sessionToken } from './session';
import { APP_CONFIG, type AppConfig } from '../../config';

export const ROLES_KEY = 'roles';
/** Restricts a route to these roles; checked on every call from the token's user. */
export const Roles = (...roles: AuthUser['role'][]) => SetMetadata(ROLES_KEY, roles);

export { SessionLookup, tokenFrom } from './session';

/**
 * Admits a request with a valid token of an existing, active user and attaches it as `request.user`;
 * with `@Roles(...)` on the route or controller, the user's current role must be one of them. The
 * token is turned into a user by the `SessionLookup` the auth module provides.
 */
@Injectable()
export class JwtAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionLookup,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.csrf = csrfPolicyOf(config);
  }

  private readonly csrf: CsrfPolicy;

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request & { user?: AuthUser }>();
    // whatever the outcome, an answer about a signed-in person is never stored by a cache
    context.switchToHttp().getResponse<Response>().setHeader('Cache-Control', 'no-store');
    const session = sessionToken(request);
    if (!session)
      throw new DomainError('UNAUTHORIZED', 'Authentication required', undefined, 'AUTH_REQUIRED');
    if (session.from === 'cookie') refuseCrossSiteCookieWrite(request, this.csrf);
    const user = await this.sessions.userFromToken(session.token);
    if (!user) throw new DomainError('UNAUTHORIZED', 'Invalid or expired token', undefined, 'INVALID_TOKEN');
    request.user = user;
    const roles = this.reflector.getAllAndOverride<AuthUser['role'][] | undefined>(ROLES_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (roles?.length && !roles.includes(request.user.role))
      throw new DomainError('FORBIDDEN', 'Access denied', undefined, 'ACCESS_DENIED');
    return true;
  }
}

/** An admin-only route: token required, current role admin, documented as such in the OpenAPI contract. */
export const AdminOnly = () =>
  applyDecorators(
    UseGuards(JwtAuthGuard),
    Roles('admin'),
    ApiBearerAuth(),
    ApiUnauthorizedResponse({ type: ErrorDto, description: 'No or invalid token' }),
    ApiForbiddenResponse({ type: ErrorDto, description: 'Access denied (not an admin)' }),
  );
