import {
  applyDecorators,
  CanActivate,
  ExecutionContext,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { Reflector } from '@nestjs/core';
import { JwtService } from '@nestjs/jwt';
import type { Request } from 'express';
import { DomainError } from '../errors/domain-error';
import { ErrorDto } from '../error.dto';
import { UsersService } from '../../modules/users/users.service';
import type { AuthUser } from './auth-user';

export const ROLES_KEY = 'roles';
/** Restricts a route to these roles; checked on every call from the token's user. */
export const Roles = (...roles: AuthUser['role'][]) => SetMetadata(ROLES_KEY, roles);

/** The token from `Authorization: Bearer` or, failing that, the httpOnly `token` cookie. */
export function tokenFrom(request: Request): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  const cookie = (request.cookies as Record<string, unknown> | undefined)?.token;
  return typeof cookie === 'string' && cookie ? cookie : undefined;
}

/**
 * The active user a token stands for, or null when the token is invalid or expired, or its user is
 * gone or deactivated. The one place a token is turned into a user (JwtAuthGuard, MaintenanceGuard).
 */
export async function activeUserFromToken(
  jwt: JwtService,
  users: UsersService,
  token: string,
): Promise<AuthUser | null> {
  let subject: unknown;
  let version: number;
  try {
    const payload = await jwt.verifyAsync<{ sub: unknown; ver?: number }>(token);
    subject = payload.sub;
    version = payload.ver ?? 0;
  } catch {
    return null;
  }
  // a token from before the last password reset no longer counts (UsersService compares the version)
  return typeof subject === 'string' ? users.activeAccount(subject, version) : null;
}

/**
 * Admits a request with a valid token of an existing, active user and attaches it as `request.user`;
 * with `@Roles(...)` on the route or controller, the user's current role must be one of them.
 */
@Injectable()
export class JwtAuthGuard implements CanActivate {
  constructor(
    private readonly jwt: JwtService,
    private readonly reflector: Reflector,
    private readonly users: UsersService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request & { user?: AuthUser }>();
    const token = tokenFrom(request);
    if (!token) throw new DomainError('UNAUTHORIZED', 'Authentication required', undefined, 'AUTH_REQUIRED');
    const user = await activeUserFromToken(this.jwt, this.users, token);
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
