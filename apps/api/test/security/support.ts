import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import request from 'supertest';
import { DEV_ADMIN_SECRET_KEY } from '../../src/config';
import { startTestApp, type TestApp } from '../support/test-app';

export const PASSWORD = 'Buna@2026x';
export const ADDRESS = {
  street: 'Bole Road, House 12',
  city: 'Addis Ababa',
  state: 'Addis Ababa',
  zipCode: '1000',
  country: 'Ethiopia',
};
/** An id that is well formed but belongs to nothing. */
export const UNKNOWN_ID = '0123456789abcdef01234567';

export interface Account {
  id: string;
  token: string;
  email: string;
}

/** The whole API with an admin, helpers to make customers and products, and the models for checking what was written. */
export interface SecurityShop {
  t: TestApp;
  admin: Account;
  auth(token: string): { Authorization: string };
  customer(): Promise<Account>;
  product(fields?: Record<string, unknown>): Promise<string>;
  model<T = unknown>(name: string): Model<T>;
  close(): Promise<void>;
}

let counter = 0;

export async function startSecurityShop(env: Record<string, string> = {}): Promise<SecurityShop> {
  const t = await startTestApp(env);
  const http = t.http;
  const register = async (path: string, extra: Record<string, unknown> = {}): Promise<Account> => {
    counter += 1;
    const email = `sec${counter}.${Date.now()}@example.et`;
    const res = await request(http)
      .post(path)
      .send({
        name: `Security Tester ${counter}`,
        email,
        password: PASSWORD,
        confirmPassword: PASSWORD,
        ...extra,
      });
    if (res.status !== 201) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return { id: res.body.user._id, token: res.body.token, email };
  };
  const admin = await register('/api/auth/register-admin', {
    adminSecretKey: t.config.adminSecretKey ?? DEV_ADMIN_SECRET_KEY,
  });
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  return {
    t,
    admin,
    auth,
    customer: () => register('/api/auth/register'),
    product: async (fields = {}) => {
      counter += 1;
      const res = await request(http)
        .post('/api/products')
        .set(auth(admin.token))
        .send({
          name: `Shea Butter Cream ${counter}`,
          brand: 'Abyssinia',
          category: 'skincare',
          description: 'Rich cream',
          price: 450,
          stock: 20,
          ...fields,
        });
      if (res.status !== 201) throw new Error(`product answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body.product._id as string;
    },
    model: <T>(name: string) => t.app.get<Model<T>>(getModelToken(name)),
    close: () => t.close(),
  };
}

/** Places an order of one product for this customer (through the cart, as the storefront does). */
export async function placeOrder(
  shop: SecurityShop,
  who: Account,
  productId: string,
  quantity = 1,
  key?: string,
) {
  await request(shop.t.http)
    .post('/api/cart/add')
    .set(shop.auth(who.token))
    .send({ productId, quantity })
    .expect(200);
  const req = request(shop.t.http).post('/api/orders').set(shop.auth(who.token));
  if (key) req.set('Idempotency-Key', key);
  return req.send({ shippingAddress: ADDRESS, paymentMethod: 'chapa', shippingMethod: 'standard' });
}

/** Every error answer has the one shape and never leaks a stack trace or a server path. */
export function expectErrorShape(body: unknown, statusCode: number): void {
  expect(body).toMatchObject({ success: false, statusCode, message: expect.any(String) });
  const text = JSON.stringify(body);
  expect(text).not.toMatch(/\bat \S+ \(|node_modules|\/work\/|apps\/api|\.ts:\d+|stack/i);
}
