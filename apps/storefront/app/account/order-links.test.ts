import { describe, expect, it, vi, afterEach } from 'vitest';
import { storefrontPaths } from '@shop/shared';
import { loader as oldOrderLink } from '../routes/account.orders.$orderId';
import { action as switchLanguage } from '../routes/language';
import { safeRedirectPath, signInPath } from './auth/intent';

/** The storefront's side of the message links and the language switch (docs/decisions/0077-links-and-message-language.md). */
describe('message links and the language switch', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("sends an old message's /account/orders/<id> on to the order's page", async () => {
    const res = (await oldOrderLink({
      params: { orderId: '6b0861' },
      request: new Request('http://shop.test/account/orders/6b0861'),
      context: {},
    })) as Response;
    expect(res.status).toBe(301);
    expect(res.headers.get('Location')).toBe(storefrontPaths.order('6b0861'));
  });

  it('brings a signed-out visitor back to the page only when it is one of ours', () => {
    expect(signInPath('/order-confirmation/1?payment=failed')).toBe(
      '/signin?redirectTo=%2Forder-confirmation%2F1%3Fpayment%3Dfailed',
    );
    for (const bad of ['//evil.example/x', '/\\evil.example', 'https://evil.example', '/\n/evil.example'])
      expect(safeRedirectPath(bad)).toBe('/');
  });

  const post = (fields: Record<string, string>, cookie?: string) =>
    switchLanguage({
      request: new Request('http://shop.test/language', {
        method: 'POST',
        headers: cookie ? { Cookie: cookie } : {},
        body: new URLSearchParams(fields),
      }),
      params: {},
      context: {},
    });

  it("sets a signed-in customer's account language with the page's, and goes back", async () => {
    const calls: { url: string; method: string; body: string }[] = [];
    vi.stubGlobal('fetch', async (input: Request) => {
      calls.push({ url: input.url, method: input.method, body: await input.text() });
      return new Response(JSON.stringify({ success: true }), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    });
    const res = await post({ lang: 'am', redirectTo: '/products?page=2' }, 'token=abc');
    expect(res.status).toBe(302);
    // the same page in the chosen language (docs/decisions/0092): Amharic is /am/…
    expect(res.headers.get('Location')).toBe('/am/products?page=2');
    expect(res.headers.get('Set-Cookie')).toContain('language=am');
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toMatch(/\/api\/users\/profile$/);
    expect(calls[0].method).toBe('PUT');
    expect(JSON.parse(calls[0].body)).toEqual({ language: 'am' });
  });

  it('changes no account for a guest, and never redirects off the site', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const res = await post({ lang: 'am', redirectTo: '//evil.example' });
    expect(res.headers.get('Location')).toBe('/am/');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('goes from an Amharic page to its English twin, its query kept', async () => {
    vi.stubGlobal('fetch', vi.fn());
    const res = await post({ lang: 'en', redirectTo: '/am/products?category=skincare' });
    expect(res.headers.get('Location')).toBe('/products?category=skincare');
    expect(res.headers.get('Set-Cookie')).toContain('language=en');
    expect(res.headers.get('Cache-Control')).toBe('private, no-store');
  });

  it('still switches when the account cannot be updated', async () => {
    vi.stubGlobal('fetch', async () => new Response('{}', { status: 503 }));
    const res = await post({ lang: 'en', redirectTo: '/cart' }, 'token=abc');
    expect(res.headers.get('Location')).toBe('/cart');
    expect(res.headers.get('Set-Cookie')).toContain('language=en');
  });
});
