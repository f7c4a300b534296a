import { ApiError } from '@shop/api-client';
import type { AuthProvider } from 'react-admin';
import { shopClient } from './shopApi';
import { session } from './session';

interface AdminIdentity { _id?: string; id?: string; name?: string; email?: string; role?: string }

let identity: AdminIdentity | undefined;

async function me(): Promise<AdminIdentity> {
  const { data, error, response } = await shopClient().GET('/api/auth/me');
  if (!data) throw ApiError.from(error, response.status);
  return (data as { user: AdminIdentity }).user;
}

/** Admins only: the API refuses non-admins when the sign-in asks for the admin role, and we check the role again. */
export const authProvider: AuthProvider = {
  async login({ username, email, password }: { username?: string; email?: string; password: string }) {
    const { data, error, response } = await shopClient().POST('/api/auth/login', {
      body: { email: (email ?? username ?? '').trim(), password, role: 'admin' },
    });
    if (!data) {
      const message = (error as { message?: string } | undefined)?.message;
      if (response.status === 403) throw new Error(message === 'This account has been deactivated' ? 'shop.admin.auth.deactivated' : 'shop.admin.auth.refused');
      if (response.status === 429) throw new Error('shop.admin.auth.tooMany');
      throw new Error('shop.admin.auth.refused');
    }
    const { token, user } = data as { token: string; user: AdminIdentity };
    if (user.role !== 'admin') throw new Error('shop.admin.auth.refused');
    session.set(token);
    identity = user;
  },
  async logout() {
    if (session.token) await shopClient().POST('/api/auth/logout').catch(() => undefined);
    session.clear();
    identity = undefined;
  },
  async checkAuth() {
    if (!session.token) throw new Error('shop.admin.auth.required');
  },
  async checkError(error: { status?: number }) {
    if (error?.status === 401) {
      session.clear();
      throw new Error('shop.admin.auth.expired');
    }
    if (error?.status === 403) throw { message: 'shop.admin.auth.forbidden', logoutUser: false };
  },
  async getIdentity() {
    identity ??= await me();
    if (identity.role !== 'admin') {
      session.clear();
      throw new Error('shop.admin.auth.refused');
    }
    return { id: identity._id ?? identity.id ?? '', fullName: identity.name ?? identity.email };
  },
  async getPermissions() {
    return identity?.role ?? 'admin';
  },
};
