import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RestartPolicy } from '../src/cluster/restart-policy';
import { startRoundRobinProxy, type RoundRobinProxy } from '../src/cluster/round-robin-proxy';

/** `npm run start:cluster` when a member dies: the proxy routes around it, the launcher restarts it. */

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
interface Fake {
  server: Server;
  port: number;
  /** Requests other than health checks, as "METHOD /path". */
  seen: string[];
  healthy: boolean;
}

const fakes: Fake[] = [];
const proxies: RoundRobinProxy[] = [];

const answer =
  (name: string): Handler =>
  (req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ name }));
  };

function listen(server: Server, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** A small API instance: /api/health answers 200 while `healthy`, everything else goes to `handle`. */
async function fake(handle: Handler, port = 0): Promise<Fake> {
  const it: Fake = { server: undefined as unknown as Server, port: 0, seen: [], healthy: true };
  it.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/api/health') {
        res.writeHead(it.healthy ? 200 : 503);
        return void res.end();
      }
      it.seen.push(`${req.method} ${req.url}`);
      handle(req, res, Buffer.concat(chunks).toString());
    });
  });
  it.port = await listen(it.server, port);
  fakes.push(it);
  return it;
}

/** A port nothing listens on (connections to it are refused). */
async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await close(server);
  return port;
}

async function proxyTo(ports: number[]): Promise<RoundRobinProxy> {
  const proxy = await startRoundRobinProxy({
    upstreams: ports.map((port) => ({ host: '127.0.0.1', port })),
    port: 0,
    host: '127.0.0.1',
    healthIntervalMs: 50,
    healthTimeoutMs: 500,
  });
  proxies.push(proxy);
  return proxy;
}

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
  await Promise.all(fakes.splice(0).map((f) => close(f.server)));
});

describe('round-robin proxy: faults', () => {
  it('answers every request from the live instance while the other refuses connections (no 502)', async () => {
    const live = await fake(answer('live'));
    const proxy = await proxyTo([await closedPort(), live.port]);
    const base = `http://127.0.0.1:${proxy.port}`;
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${base}/api/products?page=${i}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ name: 'live' });
    }
    expect(live.seen).toHaveLength(10);
    expect(proxy.isUp(0)).toBe(false);
  });

  it('sends a request refused by one instance to the other, body included', async () => {
    const live = await fake((req, res, body) => {
      res.writeHead(201, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ method: req.method, body }));
    });
    const proxy = await proxyTo([await closedPort(), live.port]);
    // the first request goes to the refusing instance first (round robin starts there)
    const res = await fetch(`http://127.0.0.1:${proxy.port}/api/orders`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ items: 1 }),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ method: 'POST', body: JSON.stringify({ items: 1 }) });
    expect(proxy.served).toEqual([1, 1]);
    expect(live.seen).toEqual(['POST /api/orders']);
  });

  it('never sends again a POST an instance received before dying (an order is not placed twice)', async () => {
    const dying = await fake((req) => req.socket.destroy()); // received it, then the process is gone
    const other = await fake(answer('other'));
    const proxy = await proxyTo([dying.port, other.port]);
    const res = await fetch(`http://127.0.0.1:${proxy.port}/api/orders`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'k-1' },
      body: JSON.stringify({ items: 1 }),
    });
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ success: false, code: 'SERVICE_UNAVAILABLE' });
    expect(dying.seen).toEqual(['POST /api/orders']);
    expect(other.seen).toEqual([]);
    // a GET it dropped is safe to send again: the client gets its answer from the other
    for (let i = 0; i < 2; i++) {
      const read = await fetch(`http://127.0.0.1:${proxy.port}/api/products`);
      expect(read.status).toBe(200);
      expect(await read.json()).toEqual({ name: 'other' });
    }
    expect(dying.seen).toEqual(['POST /api/orders', 'GET /api/products']);
  });

  it('routes around an instance failing its readiness check and takes it back once it passes', async () => {
    const one = await fake(answer('one'));
    const two = await fake(answer('two'));
    const proxy = await proxyTo([one.port, two.port]);
    const base = `http://127.0.0.1:${proxy.port}`;
    one.healthy = false; // e.g. it lost its database: /api/health answers 503
    await until(() => !proxy.isUp(0));
    const names: string[] = [];
    for (let i = 0; i < 4; i++) names.push(((await (await fetch(base)).json()) as { name: string }).name);
    expect(names).toEqual(['two', 'two', 'two', 'two']);
    one.healthy = true;
    await until(() => proxy.isUp(0));
    const after: string[] = [];
    for (let i = 0; i < 4; i++) after.push(((await (await fetch(base)).json()) as { name: string }).name);
    expect(after.sort()).toEqual(['one', 'one', 'two', 'two']);
  });

  it('uses an instance that was down again once it is back and its health check passes', async () => {
    const two = await fake(answer('two'));
    const port = await closedPort();
    const proxy = await proxyTo([port, two.port]);
    const base = `http://127.0.0.1:${proxy.port}`;
    expect((await fetch(base)).status).toBe(200); // refused by the first, answered by the second
    expect(proxy.isUp(0)).toBe(false);
    await fake(answer('back'), port); // restarted on its port
    await until(() => proxy.isUp(0));
    const names: string[] = [];
    for (let i = 0; i < 4; i++) names.push(((await (await fetch(base)).json()) as { name: string }).name);
    expect(names.sort()).toEqual(['back', 'back', 'two', 'two']);
  });

  it('keeps a busy instance whose checks time out now and then, takes it out after 3 in a row, and still uses it when no other is up', async () => {
    let slowChecks = 0;
    const busy = await fake(answer('busy'));
    const two = await fake(answer('two'));
    // /api/health of `busy` stalls past the check's timeout while slowChecks > 0
    busy.server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      if (req.url !== '/api/health' || slowChecks <= 0) return;
      slowChecks -= 1;
      res.end = (() => res) as typeof res.end; // the fake's own answer is held back: the check times out
    });
    const lines: string[] = [];
    const proxy = await startRoundRobinProxy({
      upstreams: [busy.port, two.port].map((port) => ({ host: '127.0.0.1', port })),
      port: 0,
      host: '127.0.0.1',
      healthIntervalMs: 50,
      healthTimeoutMs: 100,
      log: (line) => lines.push(line),
    });
    proxies.push(proxy);
    slowChecks = 2; // two slow answers, then prompt ones again
    await until(() => slowChecks === 0);
    await new Promise((r) => setTimeout(r, 300));
    expect(proxy.isUp(0)).toBe(true);
    expect(lines).toEqual([]);
    slowChecks = 1000; // now every check times out
    await until(() => !proxy.isUp(0));
    expect(lines).toEqual([expect.stringMatching(/down \(health check timed out\)/)]);
    const base = `http://127.0.0.1:${proxy.port}`;
    expect(((await (await fetch(base)).json()) as { name: string }).name).toBe('two');
    // the other one gone, the busy one answers rather than a 503
    await close(two.server);
    await until(() => !proxy.isUp(1));
    const res = await fetch(base);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { name: string }).name).toBe('busy');
  });

  it('answers 503 SERVICE_UNAVAILABLE in the API error shape when no instance is up', async () => {
    const proxy = await proxyTo([await closedPort(), await closedPort()]);
    for (const method of ['GET', 'POST']) {
      const res = await fetch(`http://127.0.0.1:${proxy.port}/api/orders`, {
        method,
        body: method === 'POST' ? '{}' : undefined,
      });
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({
        success: false,
        statusCode: 503,
        message: expect.any(String),
        code: 'SERVICE_UNAVAILABLE',
        params: {},
      });
    }
  });
});

describe('cluster restart policy', () => {
  it('restarts after 0.5 s, doubling up to 10 s while the member keeps dying', () => {
    const policy = new RestartPolicy();
    let now = 1_000_000;
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) {
      policy.started(now);
      now += 100; // dies at once
      const delay = policy.exited(now);
      delays.push(delay);
      now += delay;
    }
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 10000, 10000, 10000]);
  });

  it('starts again from 0.5 s once the member had run for a while', () => {
    const policy = new RestartPolicy(500, 10_000, 30_000);
    policy.started(0);
    expect(policy.exited(10)).toBe(500);
    policy.started(510);
    expect(policy.exited(520)).toBe(1000);
    policy.started(1520);
    expect(policy.exited(1520 + 29_999)).toBe(2000); // not long enough
    policy.started(40_000);
    expect(policy.exited(40_000 + 30_000)).toBe(500); // ran 30 s: a new crash, not a loop
  });
});
