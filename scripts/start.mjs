#!/usr/bin/env node
// `npm start`: builds what is stale, then runs the API (on the embedded database with the seeded
// catalogue when MONGODB_URI is unset), the storefront and the admin, and stops them together.
import { spawn, spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

const API_PORT = process.env.API_PORT || '4000';
const STOREFRONT_PORT = process.env.STOREFRONT_PORT || '3000';
const ADMIN_PORT = process.env.ADMIN_PORT || '3001';
const apiUrl = `http://localhost:${API_PORT}/api`;
const storefrontUrl = `http://localhost:${STOREFRONT_PORT}`;
const adminUrl = `http://localhost:${ADMIN_PORT}`;

const build = spawnSync('npx', ['nx', 'run-many', '-t', 'build', '--outputStyle=static'], {
  stdio: 'inherit',
  env: { ...process.env, NX_DAEMON: 'false' },
});
if (build.status !== 0) process.exit(build.status ?? 1);

const children = [];
let stopping = false;

function run(name, command, args, env) {
  // its own process group, so that stopping reaches what npm starts underneath (remix-serve, serve.mjs)
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
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
run('api', process.execPath, ['apps/api/dist/main.js'], {
  PORT: API_PORT,
  PUBLIC_API_URL: process.env.PUBLIC_API_URL || `http://localhost:${API_PORT}`,
  STOREFRONT_URL: process.env.STOREFRONT_URL || storefrontUrl,
  CORS_ORIGINS: process.env.CORS_ORIGINS || `${storefrontUrl},${adminUrl}`,
});

async function waitForApi() {
  for (let i = 0; i < 240; i++) {
    try {
      const res = await fetch(`${apiUrl}/health`);
      if (res.ok) return true;
    } catch {
      // not up yet
    }
    await sleep(500);
  }
  return false;
}

if (!(await waitForApi())) {
  console.error('The API did not become healthy within 2 minutes');
  stop(1);
} else {
  run('storefront', 'npm', ['start', '-w', '@shop/storefront'], {
    PORT: STOREFRONT_PORT,
    API_URL: apiUrl,
    ADMIN_URL: process.env.ADMIN_URL || `${adminUrl}/admin`,
  });
  run('admin', 'npm', ['start', '-w', '@shop/admin'], {
    PORT: ADMIN_PORT,
    API_URL: apiUrl,
    STOREFRONT_URL: process.env.STOREFRONT_URL || storefrontUrl,
  });
  console.log(
    `\nShop is up:\n  API         ${apiUrl}  (docs ${apiUrl}/docs)\n` +
      `  Storefront  http://localhost:${STOREFRONT_PORT}\n  Admin       http://localhost:${ADMIN_PORT}\n`,
  );
}
