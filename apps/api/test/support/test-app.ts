import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes } from 'node:crypto';
import { createApp } from '../../src/bootstrap';
import { loadConfig, type AppConfig } from '../../src/config';
import { DATABASE_ENGINE, type DatabaseEngine } from '../../src/database';

export interface TestApp {
  app: NestExpressApplication;
  config: AppConfig;
  engine: DatabaseEngine;
  /** The HTTP server to hand to supertest. */
  http: ReturnType<NestExpressApplication['getHttpServer']>;
  close(): Promise<void>;
}

/**
 * The whole Nest app on the engine ladder, with a database of its own: MONGODB_URI when set
 * (a real server), otherwise a local engine in memory. Tests never depend on which one answered.
 */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    EMBEDDED_IN_MEMORY: 'true',
    SEED_ON_EMPTY: 'false',
    AUTH_RATE_LIMIT: '1000', // tests that exercise the limit set their own
    MONGODB_DB: `test_${randomBytes(6).toString('hex')}`,
    ...env,
  });
  const app = await createApp(config, { logger: false });
  await app.init();
  const engine = app.get<DatabaseEngine>(DATABASE_ENGINE);
  return {
    app,
    config,
    engine,
    http: app.getHttpServer(),
    close: async () => {
      if (config.database.uri) {
        const { getConnectionToken } = await import('@nestjs/mongoose');
        const connection = app.get(getConnectionToken());
        await connection.dropDatabase().catch(() => undefined);
      }
      await app.close();
    },
  };
}
