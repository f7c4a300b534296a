#!/usr/bin/env node
// `npm start`: builds what is stale, then runs the API (on the embedded database with the seeded
// catalogue when MONGODB_URI is unset), the storefront and the admin, and stops them together.
// Prints about 20 lines: the build's one line, each app's start-up lines, and the banner
// (scripts/start-banner.cjs) with 'Shop is up' last, once all three apps answer.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import start from './start-banner.cjs';

const { banner, engineLabel, waitUntilAnswering } = start;
const require = createRequire(import.meta.url);

const API_PORT = process.env.API_PORT || '4000';
const STOREFRONT_PORT = process.env.STOREFRONT_PORT || '3000';
const ADMIN_PORT = process.env.ADMIN_PORT || '3001';
const apiUrl = `http://localhost:${API_PORT}/api`;
const storefrontUrl = `http://localhost:${STOREFRONT_PORT}`;
const adminUrl = `http://localhost:${ADMIN_PORT}`;
// readable log lines in development (JSON lines are production's default: docs/operations.md 'Logs')
const LOG_FORMAT = process.env.LOG_FORMAT || (process.env.NODE_ENV === 'production' ? 'json' : 'pretty');

console.log('Building what is stale (nx run-many -t build) ...');
const build = spawnSync('npx', ['nx', 'run-many', '-t', 'build', '--outputStyle=static'], {
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
  env: { ...process.env, NX_DAEMON: 'false' },
});
if (build.status !== 0) {
  process.stdout.write(build.stdout ?? '');
  process.stderr.write(build.stderr ?? '');
  process.exit(build.status ?? 1);
}

const children = [];
let stopping = false;

function run(name, command, args, env) {
  // its own process group, so that stopping reaches what npm starts underneath (remix-serve, serve.mjs)
  const child = spawn(command, args, {
    env: { ...process.env, LOG_FORMAT, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const prefix = `[${name}] `;
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop();
      for (const line of lines) process.stdout.write(prefix + line + '\n');
    });
  }
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`${prefix}exited (${signal ?? code}); stopping everything`);
      stop(code || 1);
    }
  });
  children.push(child);
  return child;
}

function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      child.kill('SIGTERM');
    }
  }
  setTimeout(() => process.exit(code), 5000).unref();
  Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r() : c.on('exit', r))))).then(
    () => process.exit(code),
  );
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

// each app learns where the others are, so non-default ports keep links, CORS and payment returns right
// the API's young generation as in production (apps/api/Dockerfile's NODE_OPTIONS, decision 0103)
run('api', process.execPath, ['--max-semi-space-size=64', 'apps/api/dist/main.js'], {
  PORT: API_PORT,
  PUBLIC_API_URL: process.env.PUBLIC_API_URL || `http://localhost:${API_PORT}`,
  STOREFRONT_URL: process.env.STOREFRONT_URL || storefrontUrl,
  CORS_ORIGINS: process.env.CORS_ORIGINS || `${storefrontUrl},${adminUrl}`,
});

/** The demo accounts as the seed creates them (apps/api/src/seed/seed.service.ts), or none if unreadable. */
function demoAccounts() {
  try {
    const { DEMO_ACCOUNTS } = require('../apps/api/dist/seed/seed.service.js');
    return { customer: DEMO_ACCOUNTS.customer, admin: DEMO_ACCOUNTS.admin };
  } catch {
    return {};
  }
}

async function engineOfApi() {
  try {
    const health = await (await fetch(`${apiUrl}/health`)).json();
    return engineLabel(health.database.engine);
  } catch {
    return undefined;
  }
}

const stopped = () => stopping;
if (!(await waitUntilAnswering([`${apiUrl}/health/ready`], { timeoutMs: 120000, stopped }))) {
  if (!stopping) console.error('The API was not ready within 2 minutes (GET /api/health/ready)');
  stop(1);
} else {
  run('storefront', 'npm', ['start', '--silent', '-w', '@shop/storefront'], {
    PORT: STOREFRONT_PORT,
    API_URL: apiUrl,
    ADMIN_URL: process.env.ADMIN_URL || `${adminUrl}/admin`,
  });
  run('admin', 'npm', ['start', '--silent', '-w', '@shop/admin'], {
    PORT: ADMIN_PORT,
    API_URL: apiUrl,
    STOREFRONT_URL: process.env.STOREFRONT_URL || storefrontUrl,
  });
  const answering = await waitUntilAnswering(
    [`${apiUrl}/health/ready`, `${storefrontUrl}/favicon.svg`, `${adminUrl}/admin`],
    { timeoutMs: 120000, stopped },
  );
  if (!answering) {
    if (!stopping) console.error('The storefront or the admin did not answer within 2 minutes');
    stop(1);
  } else {
    const lines = banner({
      apiUrl,
      storefrontUrl,
      adminUrl: `${adminUrl}/admin`,
      engine: await engineOfApi(),
      accounts: demoAccounts(),
    });
    console.log(lines.join('\n'));
  }
}
