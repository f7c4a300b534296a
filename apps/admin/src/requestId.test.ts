import { afterEach, describe, expect, it, vi } from 'vitest';

/** Every call of the back office to the API carries an X-Request-Id of its own (docs/decisions/0072-logs-and-request-ids.md). */
async function load() {
  // react-admin's hotkeys listen on window at import
  vi.stubGlobal('window', {
    __SHOP_CONFIG__: { apiUrl: 'http://127.0.0.1:4999/api' },
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  });
  const seen: { url: string; id: string | null; accept: string | null }[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    seen.push({
      url: request.url,
      id: request.headers.get('X-Request-Id'),
      accept: request.headers.get('Accept'),
    });
    return new Response(JSON.stringify([{ id: 'p1', name: 'Moringa serum' }]), {
      status: 200,
      headers: {
        'content-type': 'application/json',
        'x-total-count': '1',
        'content-range': 'products 0-0/1',
      },
    });
  });
  const { createDataProvider } = await import('./dataProvider');
  const { shopClient } = await import('./shopApi');
  return { createDataProvider, shopClient, seen };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids of the back office', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('sends a new X-Request-Id on each data provider call and each typed-client call', async () => {
    const { createDataProvider, shopClient, seen } = await load();
    const provider = createDataProvider((key: string) => key);
    const list = {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'id', order: 'ASC' as const },
      filter: {},
    };
    await provider.getList('products', list);
    await provider.getList('products', list);
    await shopClient().GET('/api/settings/public');
    await shopClient().GET('/api/settings/public');
    expect(seen).toHaveLength(4);
    for (const call of seen) expect(call.id).toMatch(UUID);
    expect(new Set(seen.map((c) => c.id)).size).toBe(4);
    // a call without headers of its own still asks for JSON, as fetchJson does then
    await provider.getOne('products', { id: 'p1' }).catch(() => undefined);
    expect(seen[4].id).toMatch(UUID);
    expect(seen[4].accept).toBe('application/json');
  });
});
