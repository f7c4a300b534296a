import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';

const root = path.resolve(__dirname, '../../..');

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
  command?: string[];
}

describe('docker-compose.yml', () => {
  const compose = parse(fs.readFileSync(path.join(root, 'docker-compose.yml'), 'utf8')) as {
    services: Record<string, ComposeService>;
    volumes: Record<string, unknown>;
  };

  it('runs MongoDB as a single-node replica set and the three apps from their own Dockerfiles', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['admin', 'api', 'mongo', 'storefront']);
    expect(compose.services.mongo.command).toEqual(expect.arrayContaining(['--replSet', 'rs0']));
    for (const app of ['api', 'storefront', 'admin']) {
      const dockerfile = compose.services[app].build!.dockerfile;
      expect(fs.existsSync(path.join(root, compose.services[app].build!.context, dockerfile))).toBe(true);
    }
  });

  it('points the API at the replica set and keeps secrets out of the file', () => {
    const env = compose.services.api.environment!;
    expect(env.MONGODB_URI).toMatch(/^mongodb:\/\/mongo:27017\/\?replicaSet=rs0$/);
    expect(env.JWT_SECRET).toMatch(/^\$\{JWT_SECRET:\?/);
    expect(env.ADMIN_SECRET_KEY).toMatch(/^\$\{ADMIN_SECRET_KEY:\?/);
    expect(compose.services.api.depends_on!.mongo.condition).toBe('service_healthy');
  });

  it('publishes the documented ports', () => {
    expect(compose.services.api.ports).toEqual(['4000:4000']);
    expect(compose.services.storefront.ports).toEqual(['3000:3000']);
    expect(compose.services.admin.ports).toEqual(['3001:3001']);
  });
});
