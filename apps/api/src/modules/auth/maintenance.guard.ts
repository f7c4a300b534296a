import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { SessionLookup, tokenFrom } from '../../common/auth/session';
import { DomainError } from '../../common/errors/domain-error';
import { SettingsService } from '../settings/settings.service';

export const MAINTENANCE_MESSAGE = 'The shop is under maintenance. Please try again later.';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Writes that stay open during maintenance: signing in and out (so admins can get in), admin
 * registration (needs the server secret), the back office, and the payment provider's calls about
 * payments already made (a paid order must still be recorded).
 */
const OPEN_WRITES: RegExp[] = [
  /^\/api\/auth\/(login|logout|me|register-admin)\/?$/,
  /^\/api\/admin(\/|$)/,
  /^\/api\/payments\/(.*\/)?(webhook|callback|verify)(\/|$)/,
  // the offline test provider's hosted page stands in for Chapa's
  /^\/api\/payments\/test\/[^/]+\/complete\/?$/,
];

/**
 * Maintenance mode (the settings' `maintenanceMode`, docs/product.md §3): while it is on, non-admin
 * writes to the shop answer 503; reads keep working and admins are unaffected. The flag is kept
 * briefly by the settings, so the usual request costs no database read; only a blocked write looks
 * the caller up (through the session lookup). It lives in the auth module because it decides who may
 * write; `common/` imports no module.
 */
@Injectable()
export class MaintenanceGuard implements CanActivate {
  constructor(
    private readonly settings: SettingsService,
    private readonly sessions: SessionLookup,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<Request>();
    if (!WRITE_METHODS.has(request.method)) return true;
    const path = request.path;
    if (OPEN_WRITES.some((re) => re.test(path))) return true;
    // if the flag cannot be read (database down), the route itself answers with the real failure
    const maintenance = await this.settings.maintenanceMode().catch(() => false);
    if (!maintenance) return true;
    if (await this.isAdmin(request)) return true;
    throw new DomainError('UNAVAILABLE', MAINTENANCE_MESSAGE, undefined, 'MAINTENANCE');
  }

  private async isAdmin(request: Request): Promise<boolean> {
    const token = tokenFrom(request);
    if (!token) return false;
    const user = await this.sessions.userFromToken(token).catch(() => null);
    return user?.role === 'admin';
  }
}
