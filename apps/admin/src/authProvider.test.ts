import { translate } from '@shop/i18n';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { translator } from './testTranslate';

const API = 'http://127.0.0.1:4999/api';
const ADMIN = { _id: 'a1', name: 'Admin', email: 'admin@beauty.et', role: 'admin' };
const CUSTOMER = { _id: 'c1', name: 'Customer', email: 'customer@beauty.et', role: 'customer' };

interface Call {
  method: string;
  url: string;
  credentials?: RequestCredentials;
  authorization: string | null;
}

/** A fake API answering by path; it records every call with the credentials mode the app asked for. */
function fakeApi(answers: Record<string, () => { status: number; body: unknown }>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname;
    calls.push({
      method: request.method,
      url: path,
      credentials: init?.credentials ?? request.credentials,
      authorization: request.headers.get('authorization'),
    });
    const answer = answers[`${request.method} ${path}`]?.() ?? {
      status: 404,
      body: { success: false, statusCode: 404, message: 'Not found' },
    };
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

async function load() {
  vi.resetModules();
  vi.stubGlobal('window', { __SHOP_CONFIG__: { apiUrl: API } });
  return (await import('./authProvider')).authProvider;
}

describe('the cookie session of the back office', () => {
  let stored: Map<string, string>;
  /** Every value the app has put in web storage. */
  const values = () => [...stored.values()];

  beforeEach(() => {
    stored = new Map();
    const storage = {
      setItem: (k: string, v: string) => void stored.set(k, String(v)),
      getItem: (k: string) => stored.get(k) ?? null,
      removeItem: (k: string) => void stored.delete(k),
    };
    vi.stubGlobal('sessionStorage', storage);
    vi.stubGlobal('localStorage', storage);
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('signs in with credentials, keeps no token and asks /auth/me only once the cached answer is old', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const calls = fakeApi({
      'POST /api/auth/login': () => ({
        status: 200,
        body: { success: true, token: 'eyJhbGciOiJIUzI1NiJ9.x.y', user: ADMIN },
      }),
      'GET /api/auth/me': () => ({ status: 200, body: { success: true, user: ADMIN } }),
    });
    const auth = await load();
    await auth.login({ email: ' admin@beauty.et ', password: 'Admin@12345' });
    expect(calls).toEqual([
      { method: 'POST', url: '/api/auth/login', credentials: 'include', authorization: null },
    ]);
    // only a non-secret mark is stored, never the token
    expect(values()).toEqual(['1']);
    expect(values().some((v) => v.includes('eyJ'))).toBe(false);

    // the answer of the sign-in stands in for /auth/me for a while
    await auth.checkAuth({});
    expect(await auth.getIdentity!()).toEqual({ id: 'a1', fullName: 'Admin' });
    expect(calls).toHaveLength(1);

    vi.setSystemTime(Date.now() + 16_000);
    await auth.checkAuth({});
    await auth.checkAuth({});
    expect(calls.slice(1)).toEqual([
      { method: 'GET', url: '/api/auth/me', credentials: 'include', authorization: null },
    ]);
  });

  it('refuses a session that is not an admin, and one the API does not know', async () => {
    let user: typeof ADMIN | undefined = CUSTOMER;
    fakeApi({
      'GET /api/auth/me': () =>
        user
          ? { status: 200, body: { success: true, user } }
          : { status: 401, body: { success: false, statusCode: 401, message: 'Authentication required' } },
    });
    const auth = await load();
    stored.set('shop.admin.signedIn', '1'); // e.g. a reload after a sign-in
    await expect(auth.checkAuth({})).rejects.toThrow('shop.admin.auth.refused');
    stored.set('shop.admin.signedIn', '1');
    user = undefined;
    await expect(auth.checkAuth({})).rejects.toThrow('shop.admin.auth.required');
    expect(stored.size).toBe(0);
  });

  it('shows the sign-in page without asking the API when this browser never signed in', async () => {
    const calls = fakeApi({
      'GET /api/auth/me': () => ({ status: 200, body: { success: true, user: ADMIN } }),
    });
    const auth = await load();
    await expect(auth.checkAuth({})).rejects.toThrow('shop.admin.auth.required');
    expect(calls).toEqual([]);
  });

  it('signs out through the API, which clears the cookie, and asks again afterwards', async () => {
    let signedIn = true;
    const calls = fakeApi({
      'POST /api/auth/login': () => ({ status: 200, body: { success: true, token: 'eyJ.x.y', user: ADMIN } }),
      'POST /api/auth/logout': () => {
        signedIn = false;
        return { status: 200, body: { success: true, message: 'Signed out' } };
      },
      'GET /api/auth/me': () =>
        signedIn
          ? { status: 200, body: { success: true, user: ADMIN } }
          : { status: 401, body: { success: false, statusCode: 401, message: 'Authentication required' } },
    });
    const auth = await load();
    await auth.login({ email: 'admin@beauty.et', password: 'Admin@12345' });
    await auth.logout({});
    expect(calls[1]).toEqual({
      method: 'POST',
      url: '/api/auth/logout',
      credentials: 'include',
      authorization: null,
    });
    await expect(auth.checkAuth({})).rejects.toThrow('shop.admin.auth.required');
  });

  it('signs out on a 401 and only notifies on a 403', async () => {
    const calls = fakeApi({
      'POST /api/auth/login': () => ({ status: 200, body: { success: true, token: 'eyJ.x.y', user: ADMIN } }),
    });
    const auth = await load();
    await auth.login({ email: 'admin@beauty.et', password: 'Admin@12345' });
    await expect(auth.checkError({ status: 403 })).rejects.toEqual({
      message: 'shop.admin.auth.forbidden',
      logoutUser: false,
    });
    await auth.checkAuth({}); // a 403 keeps the session
    await expect(auth.checkError({ status: 401 })).rejects.toThrow('shop.admin.auth.expired');
    // a 401 forgets the session: the next check goes to the sign-in page without asking again
    await expect(auth.checkAuth({})).rejects.toThrow('shop.admin.auth.required');
    expect(calls.map((c) => c.url)).toEqual(['/api/auth/login']);
    expect(stored.size).toBe(0);
  });

  it('refuses a customer at sign-in with the one refusal message', async () => {
    fakeApi({
      'POST /api/auth/login': () => ({
        status: 401,
        body: { success: false, statusCode: 401, message: 'Invalid email or password' },
      }),
    });
    const auth = await load();
    await expect(auth.login({ email: 'customer@beauty.et', password: 'Customer@123' })).rejects.toThrow(
      'shop.admin.auth.refused',
    );
    expect(stored.size).toBe(0);
  });

  it('tells a deactivated account by its code, not by its English text', async () => {
    fakeApi({
      'POST /api/auth/login': () => ({
        status: 403,
        body: { success: false, statusCode: 403, message: 'Account disabled', code: 'ACCOUNT_DEACTIVATED' },
      }),
    });
    const auth = await load();
    await expect(auth.login({ email: 'admin@beauty.et', password: 'Admin@12345' })).rejects.toThrow(
      'shop.admin.auth.deactivated',
    );
  });
});

describe('the calls of the back office', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('uploads images with the session cookie', async () => {
    const calls = fakeApi({
      'POST /api/uploads': () => ({ status: 201, body: { success: true, urls: ['/api/uploads/a.png'] } }),
    });
    vi.resetModules();
    vi.stubGlobal('window', { __SHOP_CONFIG__: { apiUrl: API } });
    const { adminApi } = await import('./shopApi');
    const urls = await adminApi.upload([
      new File([new Uint8Array([137, 80, 78, 71])], 'a.png', { type: 'image/png' }),
    ]);
    expect(urls).toEqual(['/api/uploads/a.png']);
    expect(calls).toEqual([
      { method: 'POST', url: '/api/uploads', credentials: 'include', authorization: null },
    ]);
  });
});

describe('the react-admin lists', () => {
  afterEach(() => vi.unstubAllGlobals());

  async function loadDataProvider() {
    vi.resetModules();
    // react-admin's keyboard shortcuts listen on window when the module loads
    vi.stubGlobal('window', {
      __SHOP_CONFIG__: { apiUrl: API },
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    });
    return import('./dataProvider');
  }

  it('read and write with the session cookie', async () => {
    const calls = fakeApi({
      'GET /api/admin/orders/o1': () => ({ status: 200, body: { id: 'o1', status: 'pending' } }),
    });
    const { createDataProvider } = await loadDataProvider();
    const dataProvider = createDataProvider(translator('en'));
    expect((await dataProvider.getOne('orders', { id: 'o1' })).data).toEqual({ id: 'o1', status: 'pending' });
    expect(calls).toEqual([
      { method: 'GET', url: '/api/admin/orders/o1', credentials: 'include', authorization: null },
    ]);
  });

  it("word a refusal in the chosen language from its code and params, field errors as react-admin's", async () => {
    fakeApi({
      'PUT /api/admin/orders/o1': () => ({
        status: 400,
        body: {
          success: false,
          statusCode: 400,
          message: 'Cannot change status from delivered to pending',
          code: 'INVALID_STATUS_TRANSITION',
          params: { from: 'delivered', to: 'pending' },
        },
      }),
      'POST /api/admin/users': () => ({
        status: 400,
        body: {
          success: false,
          statusCode: 400,
          message: 'Validation failed',
          code: 'VALIDATION_FAILED',
          params: {},
          errors: [
            { field: 'phone', message: 'phone must be an Ethiopian mobile number', code: 'INVALID_PHONE' },
            {
              field: 'name',
              message: 'name must be shorter than or equal to 100 characters',
              code: 'VALIDATION_FAILED',
            },
          ],
        },
      }),
      'DELETE /api/admin/reviews/r1': () => ({
        status: 409,
        body: {
          success: false,
          statusCode: 409,
          message: 'Something new happened',
          code: 'NOT_A_KNOWN_CODE',
        },
      }),
    });
    const { createDataProvider } = await loadDataProvider();
    const am = createDataProvider(translator('am'));
    const refusal = (p: Promise<unknown>) =>
      p.then(
        () => expect.unreachable(),
        (e: unknown) => e,
      );

    const moved = (await refusal(
      am.update('orders', { id: 'o1', data: { status: 'pending' }, previousData: { id: 'o1' } }),
    )) as { message: string; status: number };
    expect(moved.status).toBe(400);
    expect(moved.message).toBe(
      translate('am', 'errors.INVALID_STATUS_TRANSITION', { from: 'delivered', to: 'pending' }),
    );
    expect(moved.message).toContain('delivered');

    const invalid = (await refusal(am.create('users', { data: { name: 'x'.repeat(101) } }))) as {
      message: string;
      body: { errors: Record<string, string> };
    };
    expect(invalid.message).toBe(translate('am', 'errors.VALIDATION_FAILED'));
    expect(invalid.body.errors).toEqual({
      phone: translate('am', 'errors.INVALID_PHONE'),
      // a field without a code of its own: a text in the chosen language, not the API's English rule
      name: translate('am', 'admin.common.fieldInvalid'),
    });

    // a code the dictionaries do not know: a generic text in the chosen language, not the API's English
    const unknown = (await refusal(am.delete('reviews', { id: 'r1', previousData: { id: 'r1' } }))) as {
      message: string;
    };
    expect(unknown.message).toBe(translate('am', 'admin.common.requestFailed'));
  });
});
