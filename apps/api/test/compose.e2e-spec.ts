import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { loadConfig } from '../src/config/config';

const root = path.resolve(__dirname, '../../..');

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
  expose?: string[];
  command?: string[];
  volumes?: string[];
  deploy?: { replicas?: string | number };
}

describe('docker-compose.yml', () => {
  const compose = parse(fs.readFileSync(path.join(root, 'docker-compose.yml'), 'utf8')) as {
    services: Record<string, ComposeService>;
    volumes: Record<string, unknown>;
  };

  it('runs MongoDB as a single-node replica set and the three apps from their own Dockerfiles', () => {
    expect(Object.keys(compose.services).sort()).toEqual([
      'admin',
      'api',
      'api-lb',
      'mongo',
      'prometheus', // the optional monitoring profile (metrics.e2e-spec.ts)
      'storefront',
    ]);
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

  /** The API's environment as compose gives it, from an .env holding `dotenv` (`${X:-d}`, `${X:?m}`). */
  const resolved = (dotenv: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(compose.services.api.environment!).map(([key, value]) => [
        key,
        String(value).replace(
          /\$\{(\w+)(?::([-?])([^}]*))?\}/g,
          (_, name: string, op?: string, rest?: string) =>
            name in dotenv && dotenv[name] !== '' ? dotenv[name] : op === '-' ? (rest ?? '') : '',
        ),
      ]),
    );

  it('starts the API in production from an .env with the documented settings, and passes mail settings through', () => {
    const secrets = {
      JWT_SECRET: 'a-production-secret-of-at-least-32-characters',
      ADMIN_SECRET_KEY: 'another-production-secret',
      CHAPA_SECRET_KEY: 'CHASECK-xxxxxxxxxxxxxxxx',
      CHAPA_WEBHOOK_SECRET: 'webhook-secret',
    };
    expect(() => loadConfig(resolved({ ...secrets, SMTP_HOST: 'smtp.example.et' }))).not.toThrow();
    expect(loadConfig(resolved({ ...secrets, SMTP_HOST: 'smtp.example.et' })).mail.host).toBe(
      'smtp.example.et',
    );
    expect(() => loadConfig(resolved({ ...secrets, ALLOW_NO_MAIL: 'true' }))).not.toThrow();
    // without either the API refuses, as it says
    expect(() => loadConfig(resolved(secrets))).toThrow(/SMTP_HOST/);
  });

  it('runs API_REPLICAS API replicas (default 1) behind the api-lb load balancer, sharing state through MongoDB', () => {
    const api = compose.services.api;
    expect(api.deploy!.replicas).toBe('${API_REPLICAS:-1}');
    expect(api.ports).toBeUndefined(); // replicas cannot share a published port
    expect(api.environment!.IMAGE_STORAGE).toBe('${IMAGE_STORAGE:-gridfs}');
    const lb = compose.services['api-lb'];
    expect(lb.depends_on!.api.condition).toBe('service_healthy');
    const [config] = lb.volumes!.map((v) => v.split(':')[0]);
    const nginx = fs.readFileSync(path.join(root, config), 'utf8');
    expect(nginx).toMatch(/listen 4000;/);
    expect(nginx).toMatch(/proxy_pass http:\/\/api_replicas;/);
    // every replica's address, re-resolved; one that fails is left out for a while
    expect(nginx).toMatch(/server api:4000 resolve max_fails=\d+ fail_timeout=\d+s;/);
    // a request is sent to the next replica only when that cannot place an order twice
    expect(nginx).toMatch(/proxy_next_upstream error timeout http_502 http_503;/);
    expect(nginx).not.toMatch(/proxy_next_upstream [^;]*non_idempotent/);
    expect(compose.services.storefront.environment!.API_URL).toBe('http://api-lb:4000/api');
  });

  it('publishes the documented ports', () => {
    expect(compose.services['api-lb'].ports).toEqual(['4000:4000']);
    expect(compose.services.storefront.ports).toEqual(['3000:3000']);
    expect(compose.services.admin.ports).toEqual(['3001:3001']);
  });
});
