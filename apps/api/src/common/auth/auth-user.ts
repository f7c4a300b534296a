import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

/** The signed-in user as guards attach it to the request. */
export interface AuthUser {
  id: string;
  role: 'customer' | 'admin';
  email: string;
  name: string;
}

export const CurrentUser = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): AuthUser | undefined => {
    return ctx.switchToHttp().getRequest<{ user?: AuthUser }>().user;
  },
);
