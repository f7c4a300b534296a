import { ConfigError, DEV_JWT_SECRET, loadConfig } from './config';

describe('configuration', () => {
  it('has safe development defaults: ports, CORS allow-list, embedded database', () => {
    const config = loadConfig({});
    expect(config.port).toBe(4000);
    expect(config.nodeEnv).toBe('development');
    expect(config.corsOrigins).toEqual(['http://localhost:3000', 'http://localhost:3001']);
    expect(config.database.uri).toBeUndefined();
    expect(config.seedOnEmpty).toBe(true);
  });

  it('refuses the development secrets in production, naming every problem', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    try {
      loadConfig({ NODE_ENV: 'production', CORS_ORIGINS: '*' });
    } catch (error) {
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toMatch(/JWT_SECRET/);
      expect(problems).toMatch(/ADMIN_SECRET_KEY/);
      expect(problems).toMatch(/CORS_ORIGINS/);
    }
    const ok = loadConfig({
      NODE_ENV: 'production',
      JWT_SECRET: 'x'.repeat(40),
      ADMIN_SECRET_KEY: 'y'.repeat(20),
      MONGODB_URI: 'mongodb://db:27017/?replicaSet=rs0',
      CHAPA_SECRET_KEY: 'CHASECK-live',
      CHAPA_WEBHOOK_SECRET: 'w'.repeat(20),
      SMTP_HOST: 'smtp.example.et',
    });
    expect(ok.jwt.secret).not.toBe(DEV_JWT_SECRET);
    expect(ok.seedOnEmpty).toBe(false);
    expect(ok.allowTestPayments).toBe(false);
  });

  it('refuses the offline test payments in production unless chosen explicitly', () => {
    const base = {
      NODE_ENV: 'production',
      JWT_SECRET: 'x'.repeat(40),
      ADMIN_SECRET_KEY: 'y'.repeat(20),
      SMTP_HOST: 'smtp.example.et',
    };
    expect(() => loadConfig(base)).toThrow(/CHAPA_SECRET_KEY must be set in production/);
    expect(() => loadConfig({ ...base, CHAPA_SECRET_KEY: 'CHASECK-live' })).toThrow(/CHAPA_WEBHOOK_SECRET/);
    expect(loadConfig({ ...base, ALLOW_TEST_PAYMENTS: 'true' }).allowTestPayments).toBe(true);
    expect(loadConfig({}).allowTestPayments).toBe(true);
  });

  it('refuses production without an SMTP host unless mail is deliberately off; runs a local one elsewhere', () => {
    const base = {
      NODE_ENV: 'production',
      JWT_SECRET: 'x'.repeat(40),
      ADMIN_SECRET_KEY: 'y'.repeat(20),
      ALLOW_TEST_PAYMENTS: 'true',
    };
    expect(() => loadConfig(base)).toThrow(/SMTP_HOST must be set in production/);
    expect(loadConfig({ ...base, ALLOW_NO_MAIL: 'true' }).mail).toMatchObject({ localServer: false });
    expect(loadConfig({ ...base, SMTP_HOST: 'smtp.example.et', SMTP_PORT: '465' }).mail).toMatchObject({
      host: 'smtp.example.et',
      port: 465,
      secure: true,
      localServer: false,
    });
    expect(loadConfig({}).mail.localServer).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).notifications.workerIntervalMs).toBe(0);
    expect(() => loadConfig({ SMTP_PORT: 'smtp' })).toThrow(/SMTP_PORT must be an integer/);
  });

  it('rejects malformed values with clear messages', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT must be an integer/);
    expect(() => loadConfig({ MONGODB_URI: 'postgres://x' })).toThrow(/MONGODB_URI/);
    expect(() => loadConfig({ EMBEDDED_IN_MEMORY: 'maybe' })).toThrow(/EMBEDDED_IN_MEMORY/);
    expect(() => loadConfig({ NODE_ENV: 'staging' })).toThrow(/NODE_ENV/);
    expect(() => loadConfig({ IMAGE_STORAGE: 's3' })).toThrow(/IMAGE_STORAGE must be gridfs or disk/);
  });

  it('keeps uploaded images in GridFS unless local disk is chosen', () => {
    expect(loadConfig({}).imageStorage).toBe('gridfs');
    expect(loadConfig({ IMAGE_STORAGE: 'disk', UPLOAD_DIR: '/srv/img' })).toMatchObject({
      imageStorage: 'disk',
      uploadDir: '/srv/img',
    });
    expect(loadConfig({ IMAGE_STORAGE: 'GridFS' }).imageStorage).toBe('gridfs');
  });
});
