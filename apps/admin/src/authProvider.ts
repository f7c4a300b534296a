import type { AuthProvider } from 'react-admin';
import { ApiError, type SignedInUser } from '@shop/api-client';
import { shopClient } from './shopApi';

/** Who signed in, as the API answers sign-in and `GET /api/auth/me` (generated from openapi.yaml). */
type AdminIdentity = SignedInUser;

/** How long the answer of `GET /api/auth/me` stands in for the session check (react-admin checks on every screen). */
export const ME_CACHE_MS = 15_000;

/**
 * The session itself is the API's httpOnly `token` cookie; the app keeps only who signed in, in memory,
 * and asks the API again once the answer is older than ME_CACHE_MS.
 */
let known: { user: AdminIdentity; at: number } | undefined;
let asking: Promise<AdminIdentity> | undefined;

/**
 * A non-secret mark that this browser signed in to the back office (the cookie itself is out of script reach):
 * without it the app shows the sign-in page at once instead of asking the API for a session that is not there.
 */
export const SIGNED_IN_KEY = 'shop.admin.signedIn';

function remember(user: AdminIdentity): AdminIdentity {
  known = { user, at: Date.now() };
  localStorage.setItem(SIGNED_IN_KEY, '1');
  return user;
}

function forget(): void {
  known = undefined;
  localStorage.removeItem(SIGNED_IN_KEY);
}

/** The signed-in user from the API (cached briefly); rejects when there is no valid session cookie. */
async function currentUser(): Promise<AdminIdentity> {
  if (known && Date.now() - known.at < ME_CACHE_MS) return known.user;
  if (!localStorage.getItem(SIGNED_IN_KEY)) throw new Error('shop.admin.auth.required');
  asking ??= (async () => {
    try {
      const { data, response } = await shopClient().GET('/api/auth/me');
      if (!data || !response.ok) {
        forget();
        throw new Error('shop.admin.auth.required');
      }
      return remember(data.user);
    } finally {
      asking = undefined;
    }
  })();
  return asking;
}

/** The signed-in admin; anyone else is refused. */
async function currentAdmin(): Promise<AdminIdentity> {
  const user = await currentUser();
  if (user.role !== 'admin') {
    forget();
    throw new Error('shop.admin.auth.refused');
  }
  return user;
}

export interface AdminRegistration {
  name: string;
  email: string;
  password: string;
  adminSecretKey: string;
}

/**
 * The specification's admin registration (POST /api/auth/register-admin, same rules as the API: the
 * server's admin key, a unique email, the password strength rule). The API answers with the httpOnly
 * session cookie, so the new admin is signed in. Errors are translation keys.
 */
export async function registerAdmin(input: AdminRegistration): Promise<void> {
  const { data, error, response } = await shopClient().POST('/api/auth/register-admin', {
    body: {
      name: input.name.trim(),
      email: input.email.trim(),
      password: input.password,
      confirmPassword: input.password,
      adminSecretKey: input.adminSecretKey,
    },
  });
  if (!data) {
    const refusal = ApiError.from(error, response.status);
    if (response.status === 403) throw new Error('shop.admin.auth.wrongKey');
    if (response.status === 409) throw new Error('shop.admin.auth.emailTaken');
    if (response.status === 429) throw new Error('shop.admin.auth.tooMany');
    // the strength rule (WEAK_PASSWORD) or the DTO's rules on the password field
    if (refusal.code === 'WEAK_PASSWORD' || refusal.errors?.some((e) => e.field === 'password'))
      throw new Error('shop.admin.users.passwordWeak');
    throw new Error('shop.admin.auth.registerFailed');
  }
  remember(data.user);
}

/** Admins only: the API refuses non-admins when the sign-in asks for the admin role, and we check the role again. */
export const authProvider: AuthProvider = {
  async login({ username, email, password }: { username?: string; email?: string; password: string }) {
    // the API answers with the httpOnly session cookie; the token in the body is deliberately not kept
    const { data, error, response } = await shopClient().POST('/api/auth/login', {
      body: { email: (email ?? username ?? '').trim(), password, role: 'admin' },
    });
    if (!data) {
      if (response.status === 403)
        throw new Error(
          ApiError.from(error, response.status).code === 'ACCOUNT_DEACTIVATED'
            ? 'shop.admin.auth.deactivated'
            : 'shop.admin.auth.refused',
        );
      if (response.status === 429) throw new Error('shop.admin.auth.tooMany');
      throw new Error('shop.admin.auth.refused');
    }
    const { user } = data;
    if (user.role !== 'admin') {
      await shopClient()
        .POST('/api/auth/logout')
        .catch(() => undefined);
      throw new Error('shop.admin.auth.refused');
    }
    remember(user);
  },
  async logout() {
    forget();
    // the API clears the httpOnly cookie; a failed call still leaves the app signed out locally
    await shopClient()
      .POST('/api/auth/logout')
      .catch(() => undefined);
  },
  async checkAuth() {
    await currentAdmin();
  },
  async checkError(error: { status?: number }) {
    if (error?.status === 401) {
      forget();
      throw new Error('shop.admin.auth.expired');
    }
    if (error?.status === 403) throw { message: 'shop.admin.auth.forbidden', logoutUser: false };
  },
  async getIdentity() {
    const user = await currentAdmin();
    return { id: user._id ?? user.id ?? '', fullName: user.name ?? user.email };
  },
  async getPermissions() {
    return known?.user.role ?? 'admin';
  },
};
