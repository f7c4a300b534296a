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
import { InjectModel } from '@nestjs/mongoose';
import type { Request } from 'express';
import { Model, Types } from 'mongoose';
import { DomainError } from '../errors/domain-error';
import { ErrorDto } from '../error.dto';
import { User } from '../../modules/users/schemas/user.schema';
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
export async function activeUserFromToken(jwt: JwtService, users: Model<User>, token: string) {
  let subject: string;
  let version: number;
  try {
    const payload = await jwt.verifyAsync<{ sub: string; ver?: number }>(token);
    subject = payload.sub;
    version = payload.ver ?? 0;
  } catch {
    return null;
  }
  if (!Types.ObjectId.isValid(subject)) return null;
  const user = await users.findById(subject).lean().exec();
  // a token from before the last password reset no longer counts
  return user?.isActive && (user.tokenVersion ?? 0) === version ? user : null;
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
    @InjectModel(User.name) private readonly users: Model<User>,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request & { user?: AuthUser }>();
    const token = tokenFrom(request);
    if (!token) throw new DomainError('UNAUTHORIZED', 'Authentication required');
    const user = await activeUserFromToken(this.jwt, this.users, token);
    if (!user) throw new DomainError('UNAUTHORIZED', 'Invalid or expired token');
    request.user = {
      id: String(user._id),
      role: user.role as AuthUser['role'],
      email: user.email,
      name: user.name,
    };
    const roles = this.reflector.getAllAndOverride<AuthUser['role'][] | undefined>(ROLES_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (roles?.length && !roles.includes(request.user.role))
      throw new DomainError('FORBIDDEN', 'Access denied');
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
