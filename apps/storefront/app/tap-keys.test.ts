import { afterEach, describe, expect, it } from 'vitest';
import { TAP_KEY_TTL_MS, forgetTapKeys, oncePerTap } from './tap-keys.server';

const post = (key?: string) =>
  new Request('http://shop.local/cart/add', {
    method: 'POST',
    headers: key ? { 'X-Shop-Tap-Key': key } : {},
  });

describe('a tap sent twice is carried out once', () => {
  afterEach(forgetTapKeys);
  const key = 'b6f0c3de-2a41-4a4e-9d59-0f1c2e6b7a10';

  it('answers a repeated key with the first answer, headers included, without running again', async () => {
    let runs = 0;
    const run = async () =>
      new Response(JSON.stringify({ ok: true, n: ++runs }), {
        status: 200,
        headers: { 'Content-Type': 'application/json', 'Set-Cookie': 'cart_id=c1; Path=/' },
      });
    const [a, b] = await Promise.all([oncePerTap(post(key), run), oncePerTap(post(key), run)]);
    const c = await oncePerTap(post(key), run);
    expect(runs).toBe(1);
    for (const res of [a, b, c]) {
      expect(await res.json()).toEqual({ ok: true, n: 1 });
      expect(res.headers.get('Set-Cookie')).toBe('cart_id=c1; Path=/');
    }
  });

  it('runs again for another key, no key, a malformed key, or after the key was forgotten', async () => {
    let runs = 0;
    const run = async () => new Response(String(++runs));
    await oncePerTap(post(key), run);
    await oncePerTap(post('a7e1c0de-2a41-4a4e-9d59-0f1c2e6b7a10'), run);
    await oncePerTap(post(), run);
    await oncePerTap(post(), run);
    await oncePerTap(post('short'), run);
    expect(runs).toBe(5);
    const later = await oncePerTap(post(key), run, Date.now() + TAP_KEY_TTL_MS + 1000);
    expect(await later.text()).toBe('6');
  });

  it('forgets a key whose run failed, so that the tap can be sent again', async () => {
    await expect(oncePerTap(post(key), () => Promise.reject(new Error('API away')))).rejects.toThrow(
      'API away',
    );
    const res = await oncePerTap(post(key), async () => new Response('second'));
    expect(await res.text()).toBe('second');
  });

  it('replays a redirect (a plain form post) without a body', async () => {
    const run = async () => new Response(null, { status: 302, headers: { Location: '/product/p1?added=1' } });
    await oncePerTap(post(key), run);
    const again = await oncePerTap(post(key), async () => new Response('must not run'));
    expect(again.status).toBe(302);
    expect(again.headers.get('Location')).toBe('/product/p1?added=1');
  });
});
