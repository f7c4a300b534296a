import { applyDecorators, CanActivate, ExecutionContext, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
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
    let subject: string;
    try {
      subject = (await this.jwt.verifyAsync<{ sub: string }>(token)).sub;
    } catch {
      throw new DomainError('UNAUTHORIZED', 'Invalid or expired token');
    }
    if (!Types.ObjectId.isValid(subject)) throw new DomainError('UNAUTHORIZED', 'Invalid or expired token');
    const user = await this.users.findById(subject).lean();
    if (!user || !user.isActive) throw new DomainError('UNAUTHORIZED', 'Invalid or expired token');
    request.user = { id: String(user._id), role: user.role as AuthUser['role'], email: user.email, name: user.name };
    const roles = this.reflector.getAllAndOverride<AuthUser['role'][] | undefined>(ROLES_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (roles?.length && !roles.includes(request.user.role)) throw new DomainError('FORBIDDEN', 'Access denied');
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
