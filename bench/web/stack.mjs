// What the web benchmarks share: the repository root, Chromium's flags, and starting and waiting for servers.
import { spawn } from 'node:child_process';
import * as net from 'node:net';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Runs `node <args>` with extra environment, collecting its output; `stop()` ends it (SIGKILL after 10 s). */
export function start(args, env, cwd = root) {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  return {
    child,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10000).unref();
      }),
  };
}

/** Polls `url` until it answers 2xx (up to 2 minutes), failing early with the output if the process exits. */
export async function waitFor(url, proc) {
  for (let i = 0; i < 480; i++) {
    if (proc.child.exitCode !== null) throw new Error(`${url}: process exited\n${proc.output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer\n${proc.output()}`);
}

/**
 * Starts the built API (in-memory engine, seeded) and the storefront in `storefrontDir` (apps/storefront or a
 * private copy of its build/, server/ and public/: the server serves the build beside itself, so a copy is
 * safe from another job rebuilding apps/storefront meanwhile) on free ports, pushing both processes onto
 * `procs` (the caller stops them), and answers their URLs once they answer.
 */
export async function startApiAndStorefront(storefrontDir, procs) {
  const [apiPort, sfPort] = [await freePort(), await freePort()];
  const api = `http://127.0.0.1:${apiPort}/api`;
  const storefront = `http://127.0.0.1:${sfPort}`;
  const a = start(['apps/api/dist/main.js'], {
    NODE_ENV: 'development',
    PORT: String(apiPort),
    HOST: '127.0.0.1',
    EMBEDDED_IN_MEMORY: 'true',
    MONGOMS_ENABLED: 'false',
    SEED_ON_EMPTY: 'true',
    MONGODB_URI: '',
    CORS_ORIGINS: storefront,
    STOREFRONT_URL: storefront,
    PUBLIC_API_URL: `http://127.0.0.1:${apiPort}`,
  });
  procs.push(a);
  await waitFor(`${api}/health`, a);
  const s = start(
    [path.join(storefrontDir, 'server/index.cjs')],
    {
      NODE_ENV: 'production',
      PORT: String(sfPort),
      HOST: '127.0.0.1',
      API_URL: api,
      ADMIN_URL: 'http://127.0.0.1:1/admin',
    },
    storefrontDir,
  );
  procs.push(s);
  await waitFor(storefront, s);
  return { api, storefront };
}
