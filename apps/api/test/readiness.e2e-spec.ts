import { startEmbeddedMongo, type EmbeddedMongo } from '@shop/embedded-mongo';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { GracefulShutdown } from '../src/modules/health/graceful-shutdown.service';
import { freePort } from './fault-support';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * Liveness and readiness (docs/decisions/0073-liveness-and-readiness.md): /api/health/live answers 200
 * whatever happens; /api/health/ready answers 503 { status: 'not_ready', failing } while the database
 * is unreachable (and recovers by itself), and once the process is shutting down.
 */
describe('health: liveness and readiness', () => {
  let dir: string;
  let port: number;
  let engine: EmbeddedMongo | undefined;
  let t: TestApp;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ready-db-'));
    port = await freePort();
    engine = await startEmbeddedMongo({ port, dbPath: dir });
    t = await startTestApp({
      MONGODB_URI: `mongodb://127.0.0.1:${port}/?replicaSet=rs0&serverSelectionTimeoutMS=1500&heartbeatFrequencyMS=500`,
      NOTIFICATIONS_INTERVAL_MS: '60000', // the outbox worker runs, so readiness checks it
    });
  }, 30000);

  afterAll(async () => {
    await t?.close().catch(() => undefined);
    await engine?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is live and ready with the database up, the indexes built and the outbox worker running', async () => {
    const live = await request(t.http).get('/api/health/live').expect(200);
    expect(live.body).toMatchObject({ status: 'ok' });
    expect(live.headers['cache-control']).toBe('no-store');
    // the indexes are built in the background at start: ready within a few seconds
    let ready: request.Response | undefined;
    for (let i = 0; i < 50; i++) {
      ready = await request(t.http).get('/api/health/ready');
      if (ready.status === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(ready?.status).toBe(200);
    expect(ready?.body).toEqual({
      status: 'ready',
      failing: [],
      checks: { database: 'ok', indexes: 'ok', outbox: 'ok', shutdown: 'ok' },
    });
    expect(ready?.headers['cache-control']).toBe('no-store');
  });

  it('answers 503 not_ready naming the database while it is unreachable, stays live, and is ready again after', async () => {
    await engine!.stop();
    engine = undefined;
    const started = Date.now();
    const down = await request(t.http).get('/api/health/ready');
    expect(down.status).toBe(503);
    expect(down.body).toEqual({
      status: 'not_ready',
      failing: ['database'],
      checks: { database: 'failing', indexes: 'ok', outbox: 'ok', shutdown: 'ok' },
    });
    // a short ping: a load balancer learns it within its own check interval
    expect(Date.now() - started).toBeLessThan(2500);
    await request(t.http).get('/api/health/live').expect(200);
    // the old route keeps its own shape (spec clients use it)
    await request(t.http).get('/api/health').expect(503);

    engine = await startEmbeddedMongo({ port, dbPath: dir });
    const end = Date.now() + 20000;
    let again: request.Response | undefined;
    while (Date.now() < end) {
      again = await request(t.http).get('/api/health/ready');
      if (again.status === 200) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(again?.status).toBe(200);
    expect(again?.body.status).toBe('ready');
  }, 60000);

  it('is not ready once the process is shutting down, while still live', async () => {
    // what SIGTERM (or app.close) does first, before in-flight requests are drained
    t.app.get(GracefulShutdown).onModuleDestroy();
    const res = await request(t.http).get('/api/health/ready').expect(503);
    expect(res.body.failing).toEqual(['shutdown']);
    await request(t.http).get('/api/health/live').expect(200);
  });
});
