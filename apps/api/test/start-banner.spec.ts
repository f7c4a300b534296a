import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEMO_ACCOUNTS } from '../src/seed/seed.service';

/**
 * `npm start`'s banner (scripts/start-banner.cjs): about 20 lines at most, the demo accounts as the seed
 * makes them, and 'Shop is up' last, printed only once every app answers (the wait is tested here with
 * servers that start late, as starting the whole shop would take minutes).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const start = require('../../../scripts/start-banner.cjs') as {
  banner(input: {
    apiUrl: string;
    storefrontUrl: string;
    adminUrl: string;
    engine?: string;
    accounts?: Record<string, { email: string; password: string }>;
  }): string[];
  engineLabel(kind: string): string;
  waitUntilAnswering(
    urls: string[],
    options?: { timeoutMs?: number; intervalMs?: number; stopped?: () => boolean },
  ): Promise<boolean>;
};

describe('npm start banner', () => {
  it('names where each app runs, the engine and the demo accounts in at most 20 lines, Shop is up last', () => {
    const lines = start.banner({
      apiUrl: 'http://localhost:4000/api',
      storefrontUrl: 'http://localhost:3000',
      adminUrl: 'http://localhost:3001/admin',
      engine: start.engineLabel('embedded'),
      accounts: { customer: DEMO_ACCOUNTS.customer, admin: DEMO_ACCOUNTS.admin },
    });
    expect(lines.length).toBeLessThanOrEqual(20);
    const text = lines.join('\n');
    expect(lines[lines.length - 1]).toBe('Shop is up: http://localhost:3000');
    expect(text.match(/Shop is up/g)).toHaveLength(1);
    for (const part of [
      'http://localhost:4000/api',
      'http://localhost:3001/admin',
      'embedded',
      'customer@beauty.et / Customer@123',
      'admin@beauty.et / Admin@12345',
    ])
      expect(text).toContain(part);
  });

  it('waits until every app answers (a 503 is not an answer yet), and gives up when told', async () => {
    const servers: Server[] = [];
    const serve = (status: () => number) =>
      new Promise<string>((resolve) => {
        const server = createServer((_req, res) => {
          res.statusCode = status();
          res.end();
        });
        servers.push(server);
        server.listen(0, '127.0.0.1', () =>
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`),
        );
      });
    let ready = false;
    const api = await serve(() => (ready ? 200 : 503));
    const storefront = await serve(() => 404); // any answer below 500 counts: the server is up
    // the admin is not listening yet: a free port, taken later
    const probe = await serve(() => 200);
    const adminPort = Number(new URL(probe).port);
    await new Promise((r) => servers.pop()!.close(r));
    try {
      let done = false;
      const waiting = start
        .waitUntilAnswering([api, storefront, `http://127.0.0.1:${adminPort}/admin`], {
          intervalMs: 50,
          timeoutMs: 10000,
        })
        .then((result) => ((done = true), result));
      await new Promise((r) => setTimeout(r, 300));
      expect(done).toBe(false);
      ready = true;
      await new Promise((r) => setTimeout(r, 300));
      expect(done).toBe(false); // the admin still does not answer
      const admin = createServer((_req, res) => res.end('ok'));
      servers.push(admin);
      await new Promise<void>((r) => admin.listen(adminPort, '127.0.0.1', () => r()));
      expect(await waiting).toBe(true);

      let stop = false;
      const never = start.waitUntilAnswering(['http://127.0.0.1:9/'], {
        intervalMs: 20,
        stopped: () => stop,
      });
      stop = true;
      expect(await never).toBe(false);
    } finally {
      await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    }
  });
});
