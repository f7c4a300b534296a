import { afterEach, describe, expect, it, vi } from 'vitest';
import { getSessionUser } from './session.server';

describe('getSessionUser', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  const user = { _id: 'u1', name: 'Abebe', email: 'a@b.et', role: 'customer' };
  const stub = (status: number, body: unknown) => {
    const seen: string[] = [];
    vi.stubGlobal('fetch', async (input: Request) => {
      seen.push(`${input.method} ${new URL(input.url).pathname} ${input.headers.get('Authorization')}`);
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    });
    return seen;
  };

  it('asks the API who the token belongs to', async () => {
    const seen = stub(200, { success: true, user });
    await expect(
      getSessionUser(new Request('http://shop.test/', { headers: { Cookie: 'language=am; token=abc' } })),
    ).resolves.toEqual(user);
    expect(seen).toEqual(['GET /api/auth/me Bearer abc']);
  });

  it('is a guest without a token, with an expired one, or when the API is down', async () => {
    const seen = stub(401, { success: false, statusCode: 401, message: 'Unauthorized' });
    await expect(getSessionUser(new Request('http://shop.test/'))).resolves.toBeNull();
    expect(seen).toEqual([]);
    await expect(
      getSessionUser(new Request('http://shop.test/', { headers: { Cookie: 'token=old' } })),
    ).resolves.toBeNull();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('fetch failed');
    });
    await expect(
      getSessionUser(new Request('http://shop.test/', { headers: { Cookie: 'token=abc' } })),
    ).resolves.toBeNull();
  });
});
