import { readBool, readInt, readNodeEnv, readUrl, type Env } from '@shop/shared';
import * as path from 'node:path';

/** The API's configuration, read and validated once at start from the environment. */
export interface AppConfig {
  nodeEnv: 'development' | 'production' | 'test';
  host: string;
  port: number;
  /** Public origin of the API, used to build absolute links (payment callbacks, image URLs). */
  publicUrl: string;
  database: {
    /** Step 1 of the engine ladder: an explicit server. */
    uri?: string;
    name: string;
    /** Folder where the local engines keep their data. */
    dataDir: string;
    /** Local engines keep nothing on disk (tests). */
    inMemory: boolean;
    /** Step 2 of the ladder (mongodb-memory-server) may be tried; off skips straight to step 3. */
    tryMemoryServer: boolean;
    memoryServerTimeoutMs: number;
  };
  seedOnEmpty: boolean;
  /** The demo seed also adds a running sale ("Timket week", 20% off skincare; docs/decisions/0095). */
  seedDemoSale: boolean;
  corsOrigins: string[];
  jwt: { secret: string; expiresIn: string };
  adminSecretKey: string;
  /** Where uploaded images live: MongoDB GridFS (default, shared by every instance) or local disk (uploadDir). */
  imageStorage: 'gridfs' | 'disk';
  /** Folder of uploaded images when imageStorage is 'disk'. */
  uploadDir: string;
  storefrontUrl: string;
  bodyLimit: string;
  /** Requests per minute per client IP on sign-in and registration. */
  authRateLimit: number;
  /** Contact submissions per hour per client IP. */
  contactRateLimit: number;
  /** Lifetime of a cached anonymous public read (HotCache) for writes made by another instance; 0 = off. */
  hotCacheTtlMs: number;
  /** How long a token's user is remembered (cache/session-cache.ts); another instance's logout shows within it; 0 = off. */
  sessionCacheTtlMs: number;
  /** Bytes of answers (plain and gzip) the HotCache keeps before dropping its oldest entries. */
  hotCacheMaxBytes: number;
  /** Longest life of a cached answer while the public-data version stays put (writes made outside any API instance). */
  hotCacheMaxAgeMs: number;
  /** Chapa; without a secret key the built-in test payment provider stands in. */
  chapa: {
    secretKey?: string;
    publicKey?: string;
    webhookSecret?: string;
    /** Base of Chapa's API (a local stub in tests). */
    baseUrl: string;
    /** Where the browser posts the hosted payment form. */
    hostedFormUrl: string;
  };
  /** The offline test payment provider may stand in when no Chapa key is set (never by default in production). */
  allowTestPayments: boolean;
  /** Express `trust proxy`: which proxies' X-Forwarded-For to believe for the client IP (rate limits, contact IPs). */
  trustProxy: string;
  /** Where the back office runs (password reset links for staff). */
  adminUrl: string;
  /** Email over SMTP; without a host, development and tests run a local SMTP server that keeps mail under DATA_DIR/mail. */
  mail: {
    host?: string;
    port: number;
    secure: boolean;
    user?: string;
    password?: string;
    from: string;
    /** No SMTP host outside production: the API starts its own loopback SMTP server. */
    localServer: boolean;
  };
  /** SMS through AfroMessage's HTTP API (https://api.afromessage.com/api/send); without a token SMS are not sent. */
  sms: {
    afroMessageToken?: string;
    afroMessageBaseUrl: string;
    /** AfroMessage identifier id (`from`) and sender name (`sender`); both optional in their API. */
    afroMessageIdentifier?: string;
    afroMessageSender?: string;
  };
  /**
   * Bearer token that opens GET /api/metrics (docs/operations.md 'Metrics'); without it only
   * loopback clients read them, and only outside production.
   */
  metricsToken?: string;
  /** The outbox worker: poll interval (0 = off; off in tests unless set), attempts and backoff. */
  notifications: {
    workerIntervalMs: number;
    maxAttempts: number;
    backoffMs: number;
  };
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

export const DEV_JWT_SECRET = 'dev-only-jwt-secret-change-me-in-production';
export const DEV_ADMIN_SECRET_KEY = 'dev-admin-secret';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..', '..');

/** Parses the environment; throws ConfigError listing every problem at once. */
export function loadConfig(env: Env = process.env): AppConfig {
  const problems: string[] = [];
  const nodeEnv = readNodeEnv(env, problems);
  const production = nodeEnv === 'production';

  const port = readInt(env, 'PORT', 4000, problems);
  const host = env.HOST || '0.0.0.0';
  const publicUrl = readUrl(env, 'PUBLIC_API_URL', `http://localhost:${port}`, problems);

  const uri = env.MONGODB_URI?.trim() || undefined;
  if (uri && !/^mongodb(\+srv)?:\/\//.test(uri)) {
    problems.push('MONGODB_URI must start with mongodb:// or mongodb+srv://');
  }

  const jwtSecret = env.JWT_SECRET || DEV_JWT_SECRET;
  if (production && (jwtSecret === DEV_JWT_SECRET || jwtSecret.length < 32)) {
    problems.push('JWT_SECRET must be set to a random string of at least 32 characters in production');
  }
  const adminSecretKey = env.ADMIN_SECRET_KEY || DEV_ADMIN_SECRET_KEY;
  if (production && (adminSecretKey === DEV_ADMIN_SECRET_KEY || adminSecretKey.length < 16)) {
    problems.push('ADMIN_SECRET_KEY must be set to a secret of at least 16 characters in production');
  }

  const corsOrigins = (env.CORS_ORIGINS || 'http://localhost:3000,http://localhost:3001')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  if (production && corsOrigins.some((o) => o === '*')) {
    problems.push('CORS_ORIGINS must list origins explicitly in production, not *');
  }

  const metricsToken = env.METRICS_TOKEN?.trim() || undefined;
  if (
    production &&
    metricsToken &&
    (metricsToken.length < 32 || /^(change-?me|secret|token|dev)/i.test(metricsToken))
  ) {
    problems.push(
      'METRICS_TOKEN must be a random string of at least 32 characters in production (or unset: metrics answer 404 there)',
    );
  }

  const imageStorage = (env.IMAGE_STORAGE || 'gridfs').trim().toLowerCase();
  if (!['gridfs', 'disk'].includes(imageStorage)) {
    problems.push(`IMAGE_STORAGE must be gridfs or disk (got "${env.IMAGE_STORAGE}")`);
  }

  const inMemory = readBool(env, 'EMBEDDED_IN_MEMORY', false, problems);
  const config: AppConfig = {
    nodeEnv,
    host,
    port,
    publicUrl,
    database: {
      uri,
      name: env.MONGODB_DB || 'beauty_shop',
      dataDir: path.resolve(env.DATA_DIR || path.join(REPO_ROOT, '.data')),
      inMemory,
      tryMemoryServer: readBool(env, 'MONGOMS_ENABLED', !inMemory || !!env.MONGOMS_SYSTEM_BINARY, problems),
      memoryServerTimeoutMs: readInt(env, 'MONGOMS_TIMEOUT_MS', 20000, problems, 0, 600000),
    },
    seedOnEmpty: readBool(env, 'SEED_ON_EMPTY', nodeEnv === 'development', problems),
    seedDemoSale: readBool(env, 'SEED_DEMO_SALE', nodeEnv === 'development', problems),
    corsOrigins,
    jwt: { secret: jwtSecret, expiresIn: env.JWT_EXPIRES_IN || '7d' },
    adminSecretKey,
    imageStorage: imageStorage === 'disk' ? 'disk' : 'gridfs',
    uploadDir: path.resolve(env.UPLOAD_DIR || path.join(REPO_ROOT, '.data', 'uploads')),
    storefrontUrl: readUrl(env, 'STOREFRONT_URL', 'http://localhost:3000', problems),
    bodyLimit: env.BODY_LIMIT || '1mb',
    authRateLimit: readInt(env, 'AUTH_RATE_LIMIT', 10, problems, 1, 100000),
    contactRateLimit: readInt(env, 'CONTACT_RATE_LIMIT', 5, problems, 1, 100000),
    hotCacheTtlMs: readInt(env, 'HOT_CACHE_TTL_MS', 2000, problems, 0, 60000),
    sessionCacheTtlMs: readInt(env, 'SESSION_CACHE_TTL_MS', 2000, problems, 0, 10000),
    hotCacheMaxBytes: readInt(env, 'HOT_CACHE_MAX_BYTES', 64 * 1024 * 1024, problems, 0, 2 ** 32),
    hotCacheMaxAgeMs: readInt(env, 'HOT_CACHE_MAX_AGE_MS', 60000, problems, 0, 3600000),
    chapa: {
      secretKey: env.CHAPA_SECRET_KEY || undefined,
      publicKey: env.CHAPA_PUBLIC_KEY || undefined,
      webhookSecret: env.CHAPA_WEBHOOK_SECRET || undefined,
      baseUrl: readUrl(env, 'CHAPA_BASE_URL', 'https://api.chapa.co', problems),
      hostedFormUrl: readUrl(env, 'CHAPA_HOSTED_FORM_URL', 'https://api.chapa.co/v1/hosted/pay', problems),
    },
    allowTestPayments: readBool(env, 'ALLOW_TEST_PAYMENTS', !production, problems),
    trustProxy: env.TRUST_PROXY || 'loopback',
    adminUrl: readUrl(env, 'ADMIN_URL', 'http://localhost:3001', problems),
    mail: {
      host: env.SMTP_HOST?.trim() || undefined,
      port: readInt(env, 'SMTP_PORT', 587, problems, 1),
      secure: readBool(env, 'SMTP_SECURE', env.SMTP_PORT === '465', problems),
      user: env.SMTP_USER || undefined,
      password: env.SMTP_PASSWORD || undefined,
      from: env.MAIL_FROM || 'Addis Natural Beauty <no-reply@beauty.et>',
      localServer: !env.SMTP_HOST?.trim() && !production,
    },
    sms: {
      afroMessageToken: env.AFROMESSAGE_TOKEN || undefined,
      afroMessageBaseUrl: readUrl(env, 'AFROMESSAGE_BASE_URL', 'https://api.afromessage.com', problems),
      afroMessageIdentifier: env.AFROMESSAGE_IDENTIFIER_ID || undefined,
      afroMessageSender: env.AFROMESSAGE_SENDER || undefined,
    },
    metricsToken,
    notifications: {
      workerIntervalMs: readInt(
        env,
        'NOTIFICATIONS_INTERVAL_MS',
        nodeEnv === 'test' ? 0 : 2000,
        problems,
        0,
        3_600_000,
      ),
      maxAttempts: readInt(env, 'NOTIFICATIONS_MAX_ATTEMPTS', 8, problems, 1, 100),
      backoffMs: readInt(env, 'NOTIFICATIONS_BACKOFF_MS', 30_000, problems, 0, 3_600_000),
    },
  };
  if (production && !config.mail.host && !readBool(env, 'ALLOW_NO_MAIL', false, problems)) {
    problems.push(
      'SMTP_HOST must be set in production (order messages and password resets go by email), or ALLOW_NO_MAIL=true to keep messages in the outbox unsent',
    );
  }
  if (production && !config.chapa.secretKey && !config.allowTestPayments) {
    problems.push(
      'CHAPA_SECRET_KEY must be set in production (or ALLOW_TEST_PAYMENTS=true for a demo that charges nothing)',
    );
  }
  if (production && config.chapa.secretKey && !config.chapa.webhookSecret) {
    problems.push('CHAPA_WEBHOOK_SECRET must be set in production when CHAPA_SECRET_KEY is');
  }
  if (problems.length) throw new ConfigError(problems);
  return config;
}
