import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import express from 'express';
import { createApiClient } from '@shop/api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentRequestId, withRequestId } from '../app/request-id.server';

/**
 * The storefront's request ids and log lines (docs/decisions/0072-logs-and-request-ids.md): the id of
 * a page request (the caller's X-Request-Id when sane) is echoed, logged on the page's one line and sent
 * on every API call the page makes, so that the API's lines carry the same id.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const { createLogger, requestLog, requestIdFrom } = require('./logging.cjs') as {
  createLogger(options: { format: string; level: string }, destination?: { write(s: string): void }): unknown;
  requestLog(logger: unknown, pageRoute: (path: string) => string): express.RequestHandler;
  requestIdFrom(header: unknown): string;
};

/** A stand-in for the shop API: records the X-Request-Id of every call, answers 404 in the error shape. */
function fakeApi(): Promise<{
  server: Server;
  url: string;
  calls: { path: string; headers: IncomingHttpHeaders }[];
}> {
  const calls: { path: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((req, res) => {
    calls.push({ path: req.url ?? '', headers: req.headers });
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        success: false,
        statusCode: 404,
        message: 'Not found',
        code: 'NOT_FOUND',
        params: {},
      }),
    );
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`, calls }),
    ),
  );
}

function listen(app: express.Express): Promise<{ server: Server; url: string }> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    );
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('storefront request log and request id', () => {
  const lines: string[] = [];
  let api: Awaited<ReturnType<typeof fakeApi>>;
  let shop: { server: Server; url: string };

  beforeAll(async () => {
    api = await fakeApi();
    const logger = createLogger(
      { format: 'json', level: 'info' },
      { write: (s: string) => void lines.push(s) },
    );
    const app = express();
    app.use(requestLog(logger, (p) => (p.startsWith('/product/') ? '/product/:id' : 'unmatched')));
    app.get('/own', (_req, res) => void res.send('own'));
    // a page whose loader calls the API twice, once after an await (the id must survive it)
    app.all('*', async (_req, res) => {
      const client = withRequestId(createApiClient({ baseUrl: api.url }));
      await client.GET('/api/settings/public');
      await new Promise((r) => setTimeout(r, 5));
      await client.GET('/api/categories');
      res.json({ seen: currentRequestId() ?? null });
    });
    shop = await listen(app);
  });

  afterAll(async () => {
    await new Promise((r) => shop?.server.close(r));
    await new Promise((r) => api?.server.close(r));
  });

  const entries = () =>
    lines
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it('keeps a sane incoming id, echoes it, sends it on every API call of the page and logs it on the page line', async () => {
    api.calls.length = 0;
    const res = await fetch(`${shop.url}/product/66f0c0ffee?tab=reviews`, {
      headers: { 'X-Request-Id': 'click-42' },
    });
    expect(res.headers.get('x-request-id')).toBe('click-42');
    expect(await res.json()).toEqual({ seen: 'click-42' });
    expect(api.calls.map((c) => c.headers['x-request-id'])).toEqual(['click-42', 'click-42']);
    await new Promise((r) => setTimeout(r, 20));
    const line = entries().find((e) => e.requestId === 'click-42');
    expect(line).toMatchObject({ method: 'GET', route: '/product/:id', status: 200, service: 'storefront' });
    expect(typeof line?.durationMs).toBe('number');
    expect(JSON.stringify(line)).not.toContain('66f0c0ffee');
  });

  it('makes one new id per page request when none (or an unusable one) comes in, the same for all its API calls', async () => {
    api.calls.length = 0;
    const first = await fetch(`${shop.url}/product/a`);
    const second = await fetch(`${shop.url}/product/b`, { headers: { 'X-Request-Id': 'has space' } });
    const [a, b] = [first.headers.get('x-request-id'), second.headers.get('x-request-id')];
    expect(a).toMatch(UUID);
    expect(b).toMatch(UUID);
    expect(a).not.toBe(b);
    expect(api.calls.map((c) => c.headers['x-request-id'])).toEqual([a, a, b, b]);
    expect(requestIdFrom('x'.repeat(129))).toMatch(UUID);
    expect(requestIdFrom('y'.repeat(128))).toBe('y'.repeat(128));
  });

  it('names routes of the server itself by their path, and has no id outside a request', async () => {
    await fetch(`${shop.url}/own`, { headers: { 'X-Request-Id': 'own-1' } });
    await new Promise((r) => setTimeout(r, 20));
    expect(entries().find((e) => e.requestId === 'own-1')).toMatchObject({ route: '/own', status: 200 });
    expect(currentRequestId()).toBeUndefined();
  });
});

const built = existsSync(path.join(here, '..', 'build', 'server', 'index.js'));

describe.runIf(built)('the storefront server (the built app) sends the page request id to the API', () => {
  let api: Awaited<ReturnType<typeof fakeApi>>;
  let child: ChildProcess;
  let output = '';
  let url = '';

  beforeAll(async () => {
    api = await fakeApi();
    const probe = createServer();
    const port = await new Promise<number>((r) =>
      probe.listen(0, '127.0.0.1', () => r((probe.address() as AddressInfo).port)),
    );
    await new Promise((r) => probe.close(r));
    url = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [path.join(here, 'index.cjs')], {
      cwd: path.join(here, '..'),
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        API_URL: api.url,
        LOG_FORMAT: 'json',
        OTEL_EXPORTER_OTLP_ENDPOINT: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (c) => (output += c));
    child.stderr!.on('data', (c) => (output += c));
    for (let i = 0; i < 200; i++) {
      try {
        await fetch(`${url}/favicon.ico`);
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    throw new Error(`the storefront did not start:\n${output}`);
  }, 30000);

  afterAll(async () => {
    child?.kill('SIGTERM');
    await new Promise((r) => api?.server.close(r));
  });

  it('a product page asked with X-Request-Id: every API call of it carries the id, and the page line names the route', async () => {
    api.calls.length = 0;
    const res = await fetch(`${url}/product/66f0c0ffee0000000000abcd`, {
      headers: { 'X-Request-Id': 'page-77' },
    });
    expect(res.headers.get('x-request-id')).toBe('page-77');
    await res.text();
    expect(api.calls.length).toBeGreaterThan(0);
    for (const call of api.calls) expect(call.headers['x-request-id']).toBe('page-77');
    await new Promise((r) => setTimeout(r, 100));
    const line = output
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((e) => e.requestId === 'page-77');
    expect(line).toMatchObject({ method: 'GET', route: '/product/:id', service: 'storefront' });
  }, 30000);
});
