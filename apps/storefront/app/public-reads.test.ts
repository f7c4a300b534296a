import { describe, expect, it } from 'vitest';
import { createPublicReads, publicReadsConfig } from './public-reads.server';

const URL_A = 'http://api.test/api/products?limit=4';

/** A fake API: answers `body` with ETag `etag`, 304 to a matching If-None-Match; notes every request. */
function fakeApi(initial: { body: string; etag?: string; status?: number; cacheControl?: string }) {
  const state = { ...initial };
  const seen: { url: string; ifNoneMatch: string | null; authorization: string | null }[] = [];
  const apiFetch = (async (input: Request | string, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    seen.push({
      url: request.url,
      ifNoneMatch: request.headers.get('If-None-Match'),
      authorization: request.headers.get('Authorization'),
    });
    await new Promise((r) => setTimeout(r, 5));
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (state.etag) headers.ETag = state.etag;
    if (state.cacheControl) headers['Cache-Control'] = state.cacheControl;
    if (state.etag && request.headers.get('If-None-Match') === state.etag)
      return new Response(null, { status: 304, headers });
    return new Response(state.body, { status: state.status ?? 200, headers });
  }) as typeof fetch;
  return { state, seen, fetch: apiFetch };
}

function reads(api: ReturnType<typeof fakeApi>, clock: { t: number }, freshMs = 250) {
  return createPublicReads({ freshMs, maxEntries: 2, maxBytes: 1000, now: () => clock.t, fetch: api.fetch });
}

describe('public reads kept for personal pages', () => {
  it('uses a kept answer while fresh, then asks again with If-None-Match and keeps it on 304', async () => {
    const api = fakeApi({ body: '{"n":1}', etag: '"v1"' });
    const clock = { t: 1000 };
    const r = reads(api, clock);
    expect(await (await r.fetch(URL_A)).json()).toEqual({ n: 1 });
    clock.t += 200;
    expect(await (await r.fetch(URL_A)).json()).toEqual({ n: 1 });
    expect(api.seen).toHaveLength(1);
    clock.t += 100; // 300 ms after the answer: asked again, conditionally
    expect(await (await r.fetch(URL_A)).json()).toEqual({ n: 1 });
    expect(api.seen.map((s) => s.ifNoneMatch)).toEqual([null, '"v1"']);
    expect(r.stats).toMatchObject({ fetched: 1, fresh: 1, confirmed: 1 });
  });

  it('a moved answer (new ETag) replaces the kept one at the next question', async () => {
    const api = fakeApi({ body: '{"price":100}', etag: '"a"' });
    const clock = { t: 0 };
    const r = reads(api, clock);
    await (await r.fetch(URL_A)).json();
    api.state.body = '{"price":90}';
    api.state.etag = '"b"';
    clock.t = 251;
    expect(await (await r.fetch(URL_A)).json()).toEqual({ price: 90 });
    clock.t = 300;
    expect(await (await r.fetch(URL_A)).json()).toEqual({ price: 90 });
    expect(api.seen).toHaveLength(2);
  });

  it('after a write, a fresh kept answer is asked again before it is used', async () => {
    const api = fakeApi({ body: '{"reviews":0}', etag: '"r0"' });
    const clock = { t: 0 };
    const r = reads(api, clock);
    await r.fetch(URL_A);
    clock.t = 10;
    api.state.body = '{"reviews":1}';
    api.state.etag = '"r1"';
    r.written();
    clock.t = 20;
    expect(await (await r.fetch(URL_A)).json()).toEqual({ reviews: 1 });
  });

  it('freshMs 0 asks (conditionally) every time', async () => {
    const api = fakeApi({ body: '{}', etag: '"e"' });
    const r = reads(api, { t: 5 }, 0);
    await r.fetch(URL_A);
    await r.fetch(URL_A);
    expect(api.seen.map((s) => s.ifNoneMatch)).toEqual([null, '"e"']);
  });

  it('keeps nothing personal or unversioned: a token, a cookie, no ETag, private, an error, a write', async () => {
    const clock = { t: 0 };
    for (const answer of [
      { body: '{}' },
      { body: '{}', etag: '"p"', cacheControl: 'private, no-store' },
      { body: '{"error":1}', etag: '"x"', status: 503 },
    ]) {
      const api = fakeApi(answer);
      const r = reads(api, clock);
      await (await r.fetch(URL_A)).text();
      await (await r.fetch(URL_A)).text();
      expect(api.seen).toHaveLength(2);
      expect(r.size()).toBe(0);
    }
    const api = fakeApi({ body: '{"me":1}', etag: '"m"' });
    const r = reads(api, clock);
    for (const init of <RequestInit[]>[
      { headers: { Authorization: 'Bearer t' } },
      { headers: { Cookie: 'token=t' } },
      { method: 'POST', body: '{}' },
    ]) {
      await r.fetch(URL_A, init);
      await r.fetch(URL_A, init);
    }
    expect(api.seen).toHaveLength(6);
    expect(api.seen[0].authorization).toBe('Bearer t');
    expect(r.size()).toBe(0);
  });

  it('concurrent questions for one address share one answer; at most maxEntries are kept', async () => {
    const api = fakeApi({ body: '{"n":2}', etag: '"s"' });
    const r = reads(api, { t: 0 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => r.fetch(URL_A).then((x) => x.json())));
    expect(answers.every((a) => a.n === 2)).toBe(true);
    expect(api.seen).toHaveLength(1);
    await r.fetch(`${URL_A}&page=2`);
    await r.fetch(`${URL_A}&page=3`);
    expect(r.size()).toBe(2);
  });

  it('each caller gets its own body (a body read by one page is still there for the next)', async () => {
    const api = fakeApi({ body: '{"k":"v"}', etag: '"k"' });
    const r = reads(api, { t: 0 });
    const first = await r.fetch(URL_A);
    expect(await first.text()).toBe('{"k":"v"}');
    expect(await (await r.fetch(URL_A)).text()).toBe('{"k":"v"}');
  });

  it('reads PUBLIC_READS_FRESH_MS (default 250, 0 allowed) and refuses nonsense', () => {
    expect(publicReadsConfig({}).freshMs).toBe(250);
    expect(publicReadsConfig({ PUBLIC_READS_FRESH_MS: '0' }).freshMs).toBe(0);
    expect(() => publicReadsConfig({ PUBLIC_READS_FRESH_MS: '-1' })).toThrow(/PUBLIC_READS_FRESH_MS/);
    expect(() => publicReadsConfig({ PUBLIC_READS_FRESH_MS: 'soon' })).toThrow(/PUBLIC_READS_FRESH_MS/);
  });
});
