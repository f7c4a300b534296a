import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePorts, root } from './stack';

/**
 * `npm run start:cluster` (the built apps/api/dist/cluster/main.js: an engine on disk, two API
 * instances and the round-robin proxy) while an instance is killed with SIGKILL in the middle of
 * orders: customers retrying with their Idempotency-Key get exactly one order per key, the stock goes
 * down by exactly the orders, every customer orders again within the engine's transaction lifetime
 * limit (5 s here) and the idempotency lease (5 s), and once the proxy marks the instance down no
 * request gets a 502; the launcher starts the instance again and the proxy takes it back.
 * Measured times are printed as `[fault-cluster] ...` lines (docs/quality.md).
 */

const CUSTOMERS = 24;
const LOAD_MS = 16000;
const KILL_AT_MS = 6000;
const LIFETIME_S = 5;
const PASSWORD = 'Buna@2026x';
const ADDRESS = { street: 'Bole Road, House 12', city: 'Addis Ababa', state: 'Addis Ababa', zipCode: '1000' };
const INITIAL_STOCK = 100000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Line {
  at: number;
  text: string;
}

interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- the API's JSON
}

describe('fault: an API instance of `npm run start:cluster` is killed (SIGKILL) mid-order under load', () => {
  let cluster: ChildProcess;
  let dataDir: string;
  let apiPort: number;
  let api: string;
  const lines: Line[] = [];

  /** The first output line at or after `since` matching `pattern` (waiting up to `timeoutMs`). */
  const waitForLine = async (pattern: RegExp, since: number, timeoutMs: number): Promise<Line> => {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const found = lines.find((l) => l.at >= since && pattern.test(l.text));
      if (found) return found;
      if (cluster.exitCode !== null || cluster.signalCode !== null)
        throw new Error(`the cluster exited:\n${lines.map((l) => l.text).join('\n')}`);
      if (Date.now() > end)
        throw new Error(`no ${pattern} within ${timeoutMs} ms:\n${lines.map((l) => l.text).join('\n')}`);
      await sleep(20);
    }
  };
  const pidOf = (member: string): number => {
    const started = lines.filter((l) =>
      new RegExp(`^\\[cluster\\] ${member} (re)?started \\(pid \\d+\\)`).test(l.text),
    );
    return Number(/pid (\d+)/.exec(started[started.length - 1].text)![1]);
  };

  const call = async (
    method: string,
    url: string,
    token?: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> => {
    const res = await fetch(`${api}${url}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60000),
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed };
  };
  /** Repeats a call that a dying instance may cut off until the API answers `ok`. */
  const until = async (ok: number[], send: () => Promise<Answer>): Promise<Answer> => {
    for (let i = 0; ; i++) {
      const res = await send().catch(() => ({ status: 0, body: undefined }) as Answer);
      if (ok.includes(res.status)) return res;
      if (![0, 409, 502, 503].includes(res.status) || i > 200)
        throw new Error(`unexpected answer ${res.status} ${JSON.stringify(res.body)}`);
      await sleep(100);
    }
  };

  beforeAll(async () => {
    expect(fs.existsSync(path.join(root, 'apps/api/dist/cluster/main.js'))).toBe(true);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fault-cluster-'));
    apiPort = await freePorts(3);
    const mongoPort = await freePorts(1);
    api = `http://127.0.0.1:${apiPort}/api`;
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      NODE_ENV: 'development',
      API_PORT: String(apiPort),
      HOST: '127.0.0.1',
      API_INSTANCES: '2',
      MONGO_PORT: String(mongoPort),
      DATA_DIR: dataDir,
      MONGO_TRANSACTION_LIFETIME_LIMIT_SECONDS: String(LIFETIME_S),
      SEED_ON_EMPTY: 'false',
      AUTH_RATE_LIMIT: '100000',
      PUBLIC_API_URL: `http://127.0.0.1:${apiPort}`,
    };
    for (const name of ['MONGODB_URI', 'PORT', 'EMBEDDED_IN_MEMORY', 'API_REPLICAS']) delete env[name];
    cluster = spawn(process.execPath, ['apps/api/dist/cluster/main.js'], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [cluster.stdout!, cluster.stderr!]) {
      let rest = '';
      stream.on('data', (chunk: Buffer) => {
        const parts = (rest + chunk.toString()).split('\n');
        rest = parts.pop() ?? '';
        for (const text of parts) lines.push({ at: Date.now(), text });
      });
    }
    await waitForLine(/^\[cluster\] up: /, 0, 110000);
  }, 120000);

  afterAll(async () => {
    if (cluster && cluster.exitCode === null && cluster.signalCode === null) {
      const exited = new Promise((r) => cluster.once('exit', r));
      cluster.kill('SIGTERM');
      if (!(await Promise.race([exited.then(() => true), sleep(30000).then(() => false)]))) {
        // the launcher did not stop its members: end the ones it started, then itself
        for (const line of lines) {
          const pid = /\(pid (\d+)\)/.exec(line.text)?.[1];
          if (pid) {
            try {
              process.kill(Number(pid), 'SIGKILL');
            } catch {
              // already gone
            }
          }
        }
        cluster.kill('SIGKILL');
      }
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
    // the cluster's own log, for a failure's post-mortem
    fs.writeFileSync(
      path.join(os.tmpdir(), 'fault-cluster.log'),
      lines.map((l) => `${l.at} ${l.text}`).join('\n'),
    );
  }, 40000);

  it('keeps one order per key and the stock exact, lets every customer order again within the limits, and sends no 502 once the instance is marked down', async () => {
    const admin = await call('POST', '/auth/register-admin', undefined, {
      name: 'Cluster Admin',
      email: 'cluster.admin@example.et',
      password: PASSWORD,
      adminSecretKey: 'dev-admin-secret',
    });
    expect(admin.status).toBe(201);
    const created = await call('POST', '/products', admin.body.token, {
      name: 'Cluster Shea Butter',
      price: 120,
      stock: INITIAL_STOCK,
      category: 'skincare',
    });
    expect(created.status).toBe(201);
    const productId: string = created.body.product._id;
    const tokens = await Promise.all(
      Array.from({ length: CUSTOMERS }, async (_, i) => {
        const res = await call('POST', '/auth/register', undefined, {
          name: `Cluster Buyer ${i}`,
          email: `cluster.buyer${i}@example.et`,
          password: PASSWORD,
          confirmPassword: PASSWORD,
        });
        expect(res.status).toBe(201);
        return res.body.token as string;
      }),
    );

    /** Every answer to an order request: when it was sent and answered, and what it said. */
    const answers: Array<{ customer: number; sentAt: number; at: number; status: number; code?: string }> =
      [];
    /** The orders answered for each key (one key per checkout, kept across its retries). */
    const ordersByKey = new Map<string, Set<string>>();
    /** When each customer's orders were answered 201/200. */
    const placedAt: number[][] = tokens.map(() => []);
    const begin = Date.now();
    const loadEnd = begin + LOAD_MS;

    const shopper = async (customer: number) => {
      const token = tokens[customer];
      for (let round = 0; Date.now() < loadEnd; round++) {
        const cart = await until([200], () => call('POST', '/cart/add', token, { productId, quantity: 1 }));
        // an add cut off by the kill may have been applied before a retry added again: one unit
        if (cart.body.itemCount !== 1)
          await until([200], () => call('PATCH', `/cart/update/${productId}`, token, { quantity: 1 }));
        const key = `cluster-${customer}-${round}`;
        ordersByKey.set(key, new Set());
        for (let attempt = 0; ; attempt++) {
          const sentAt = Date.now();
          const res = await call(
            'POST',
            '/orders',
            token,
            { shippingAddress: ADDRESS, paymentMethod: 'chapa' },
            { 'Idempotency-Key': key },
          ).catch(() => ({ status: 0, body: undefined }) as Answer);
          answers.push({ customer, sentAt, at: Date.now(), status: res.status, code: res.body?.code });
          if (res.status === 201 || res.status === 200) {
            ordersByKey.get(key)!.add(res.body.order._id);
            placedAt[customer].push(Date.now());
            break;
          }
          if (![0, 409, 502, 503].includes(res.status) || attempt > 300)
            throw new Error(`order ${key}: ${res.status} ${JSON.stringify(res.body)}`);
          await sleep(100);
        }
      }
    };

    const victim = 'api-1';
    const victimPid = pidOf(victim);
    const killer = (async () => {
      await sleep(KILL_AT_MS);
      const killedAt = Date.now();
      process.kill(victimPid, 'SIGKILL');
      return killedAt;
    })();
    await Promise.all(tokens.map((_, i) => shopper(i)));
    const killedAt = await killer;

    // the proxy marked the instance down (by a refused request or its health check)
    const marked = await waitForLine(/^\[cluster\] 127\.0\.0\.1:\d+ down \(/, killedAt, 5000);
    // no request sent once it was marked down got a 502, and none a 503 (the other instance was up)
    const afterMark = answers.filter((a) => a.sentAt >= marked.at);
    expect(afterMark.length).toBeGreaterThan(0);
    expect(afterMark.filter((a) => a.status === 502)).toEqual([]);
    expect(answers.filter((a) => a.status === 503)).toEqual([]);
    expect(answers.filter((a) => a.status === 0 && a.sentAt >= marked.at)).toEqual([]);

    // exactly one order per key, whatever the retries: the same order answered to every retry
    for (const [key, ids] of ordersByKey) expect([key, ids.size]).toEqual([key, 1]);
    const answered = new Set([...ordersByKey.values()].flatMap((ids) => [...ids]));
    let stored = 0;
    let units = 0;
    for (const token of tokens) {
      const mine = await until([200], () => call('GET', '/orders/my-orders', token));
      for (const order of mine.body.orders) {
        expect(answered.has(order._id)).toBe(true);
        stored += 1;
        units += order.orderItems.reduce((n: number, item: { quantity: number }) => n + item.quantity, 0);
      }
    }
    expect(stored).toBe(answered.size);
    expect(units).toBe(stored);
    // the stock went down by exactly the orders (read until the product caches have heard of the last one)
    let stock: number | undefined;
    for (let i = 0; i < 50 && stock !== INITIAL_STOCK - stored; i++) {
      stock = (await until([200], () => call('GET', `/products/${productId}`))).body.stock;
      if (stock !== INITIAL_STOCK - stored) await sleep(100);
    }
    expect(stock).toBe(INITIAL_STOCK - stored);

    // every customer ordered again after the kill: past the transactions the dead instance left (ended
    // by the engine after LIFETIME_S), the idempotency lease (5 s) and the queue on the one instance
    // left, which shares 2 cores with the restarting one; the default limit (60 s) would not pass
    const recovery = placedAt.map((times) => (times.find((t) => t > killedAt) ?? Infinity) - killedAt);
    const worst = Math.max(...recovery);
    const lastAnswerAfterKill = answers.filter((a) => a.sentAt < killedAt && a.at > killedAt);
    process.stdout.write(
      `[fault-cluster] ${CUSTOMERS} customers, ${stored} orders in ${LOAD_MS} ms; instance marked down ` +
        `${marked.at - killedAt} ms after the kill; ${answers.filter((a) => a.status === 502).length} answers 502 ` +
        `(all before the mark), ${answers.filter((a) => a.code === 'IDEMPOTENCY_KEY_IN_PROGRESS').length} ` +
        `IDEMPOTENCY_KEY_IN_PROGRESS; ${lastAnswerAfterKill.length} requests in flight at the kill; ` +
        `every customer ordered again within ${worst} ms of the kill ` +
        `(median ${[...recovery].sort((a, b) => a - b)[Math.floor(recovery.length / 2)]} ms)\n`,
    );
    expect(worst).toBeLessThan((LIFETIME_S + 15) * 1000);
  }, 120000);

  it('starts the killed instance again, and the proxy sends it requests once it is healthy', async () => {
    const restarted = await waitForLine(/^\[cluster\] api-1 restarted \(pid \d+\)/, 0, 30000);
    const exited = lines.find((l) =>
      /^\[cluster\] api-1 exited \(SIGKILL\); restarting in \d+ ms/.test(l.text),
    )!;
    expect(exited).toBeDefined();
    const back = await waitForLine(/^\[cluster\] 127\.0\.0\.1:\d+ healthy again/, restarted.at, 60000);
    process.stdout.write(
      `[fault-cluster] api-1 restarted ${restarted.at - exited.at} ms after its exit and back in the proxy's ` +
        `rotation ${back.at - exited.at} ms after it\n`,
    );
    // with the other instance killed too, the proxy answers from the restarted one alone
    const otherPid = pidOf('api-2');
    const killedAt = Date.now();
    process.kill(otherPid, 'SIGKILL');
    const products = await call('GET', '/products?limit=1');
    expect(products.status).toBe(200);
    const marked = await waitForLine(/^\[cluster\] 127\.0\.0\.1:\d+ down \(/, killedAt, 5000);
    for (let i = 0; i < 10; i++) {
      const health = await call('GET', '/health');
      expect(health.status).toBe(200);
    }
    expect(marked.at - killedAt).toBeLessThan(5000);
    // and api-2 comes back in turn
    await waitForLine(/^\[cluster\] api-2 restarted \(pid \d+\)/, killedAt, 30000);
  }, 120000);
});
