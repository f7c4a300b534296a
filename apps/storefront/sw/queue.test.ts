import { describe, expect, it } from 'vitest';
import { MAX_TAPS, MAX_TAP_AGE_MS, enqueue, flush, memoryStore, tapFrom, type QueuedTap } from './queue';

const form = (productId: string, extra: [string, string][] = []): [string, FormDataEntryValue][] => [
  ['productId', productId],
  ['quantity', '2'],
  ['redirectTo', '/product/' + productId],
  ...extra,
];

describe('the offline taps', () => {
  it('keeps the chosen variant of a product with variants (two shades are two cart lines)', () => {
    const tap = tapFrom('cart', '/cart/add', form('p1', [['variantId', 'v2']]), 'k0', 5);
    expect(tap.fields).toContainEqual(['variantId', 'v2']);
  });
  it('keeps only the fields of the cart/wishlist forms, and asks for a JSON answer', () => {
    const tap = tapFrom(
      'cart',
      '/cart/add',
      form('p1', [
        ['password', 'x'],
        ['mode', 'html'],
      ]),
      'k1',
      5,
    );
    expect(tap.fields).toEqual([
      ['productId', 'p1'],
      ['quantity', '2'],
      ['redirectTo', '/product/p1'],
      ['mode', 'json'],
    ]);
  });

  it('sends the taps in the order they were made, each with its key, and reports what each came to', async () => {
    const store = memoryStore();
    await enqueue(store, tapFrom('cart', '/cart/add', form('b'), 'k2', 20));
    await enqueue(store, tapFrom('cart', '/cart/add', form('a'), 'k1', 10));
    await enqueue(store, tapFrom('wishlist', '/wishlist/toggle', form('c'), 'k3', 30));
    const sent: string[] = [];
    const results = await flush(
      store,
      async (tap: QueuedTap) => {
        sent.push(tap.key);
        if (tap.key === 'k2')
          return { status: 409, body: { ok: false, said: { key: 'errors.INSUFFICIENT_STOCK' } } };
        return { status: 200, body: { ok: true } };
      },
      100,
    );
    expect(sent).toEqual(['k1', 'k2', 'k3']);
    expect(results.map((r) => [r.key, r.kind, r.outcome, r.productId])).toEqual([
      ['k1', 'cart', 'done', 'a'],
      ['k2', 'cart', 'refused', 'b'],
      ['k3', 'wishlist', 'done', 'c'],
    ]);
    expect(results[1].said).toEqual({ key: 'errors.INSUFFICIENT_STOCK' });
    expect(await store.all()).toEqual([]);
  });

  it('stops at a network failure or a server error and keeps the rest for the next round', async () => {
    const store = memoryStore();
    await enqueue(store, tapFrom('cart', '/cart/add', form('a'), 'k1', 1));
    await enqueue(store, tapFrom('cart', '/cart/add', form('b'), 'k2', 2));
    await enqueue(store, tapFrom('cart', '/cart/add', form('c'), 'k3', 3));
    let calls = 0;
    const first = await flush(
      store,
      async () => {
        calls++;
        if (calls === 2) throw new TypeError('Failed to fetch');
        return { status: 200, body: { ok: true } };
      },
      10,
    );
    expect(first.map((r) => r.key)).toEqual(['k1']);
    expect((await store.all()).map((t) => t.key).sort()).toEqual(['k2', 'k3']);
    const second = await flush(store, async () => ({ status: 503, body: null }), 10);
    expect(second).toEqual([]);
    expect((await store.all()).length).toBe(2);
    const third = await flush(store, async () => ({ status: 200, body: { ok: true } }), 10);
    expect(third.map((r) => r.key)).toEqual(['k2', 'k3']);
  });

  it('drops taps older than a day unsent, and refuses more than the queue holds', async () => {
    const store = memoryStore();
    await enqueue(store, tapFrom('cart', '/cart/add', form('a'), 'old', 0));
    const results = await flush(
      store,
      async () => {
        throw new Error('must not be sent');
      },
      MAX_TAP_AGE_MS + 1,
    );
    expect(results).toEqual([]);
    expect(await store.all()).toEqual([]);
    for (let i = 0; i < MAX_TAPS; i++)
      expect(await enqueue(store, tapFrom('cart', '/cart/add', form('p'), `k${i}`, i))).toBe(true);
    expect(await enqueue(store, tapFrom('cart', '/cart/add', form('p'), 'one-too-many', 99))).toBe(false);
    expect((await store.all()).length).toBe(MAX_TAPS);
  });
});
