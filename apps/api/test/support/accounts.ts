import request from 'supertest';
import type { TestApp } from './test-app';

export const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Signs in with an email and password (a seeded demo account, say); answers the token. */
export async function loginAs(t: TestApp, account: { email: string; password: string }): Promise<string> {
  const res = await request(t.http)
    .post('/api/auth/login')
    .send({ email: account.email, password: account.password })
    .expect(200);
  return res.body.token as string;
}

/**
 * A factory of fresh customers, each registered under a new address (`<prefix><n>@example.et`),
 * so that the tests of a file never share a cart, wishlist or order history.
 */
export function customerFactory(t: () => TestApp, prefix: string, displayName: string) {
  let counter = 0;
  return async (): Promise<{ token: string; id: string }> => {
    counter += 1;
    const res = await request(t().http)
      .post('/api/auth/register')
      .send({
        name: `${displayName} ${counter}`,
        email: `${prefix}${counter}@example.et`,
        password: 'Buna@2026',
        confirmPassword: 'Buna@2026',
      })
      .expect(201);
    return { token: res.body.token as string, id: res.body.user._id as string };
  };
}
