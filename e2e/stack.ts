import { spawn, type ChildProcess } from 'node:child_process';
import * as net from 'node:net';
import * as path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

export const root = path.resolve(__dirname, '..');

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Debian's headless Chromium with the flags above. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/**
 * Free loopback ports for servers a test starts. They are taken below Linux's ephemeral range
 * (32768–60999), because a process that asks for port 0 (the API's local mail server, the
 * embedded engine) is given one from that range and could take a port picked here before the
 * server it was picked for listens on it (docs/quality.md, "Ports in tests").
 * `count` > 1 gives consecutive ports; the answer is the first.
 */
export async function freePorts(count = 1): Promise<number> {
  const tryBind = (port: number) =>
    new Promise<net.Server | undefined>((resolve) => {
      const s = net.createServer();
      s.once('error', () => resolve(undefined));
      s.listen(port, '127.0.0.1', () => resolve(s));
    });
  for (let tries = 0; tries < 200; tries++) {
    const base = 20000 + Math.floor(Math.random() * (32768 - 20000 - count));
    if (handedOut.has(base)) continue;
    const bound: net.Server[] = [];
    for (let i = 0; i < count; i++) {
      const s = await tryBind(base + i);
      if (!s) break;
      bound.push(s);
    }
    await Promise.all(bound.map((s) => new Promise((r) => s.close(r))));
    if (bound.length === count) {
      for (let i = 0; i < count; i++) handedOut.add(base + i);
      return base;
    }
  }
  throw new Error('no free ports below 32768');
}
const handedOut = new Set<number>();

export function freePort(): Promise<number> {
  return freePorts(1);
}

async function waitFor(url: string, child: ChildProcess, log: () => string): Promise<void> {
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited\n${log()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer\n${log()}`);
}

export interface Stack {
  api: string;
  storefront: string;
  admin: string;
  stop(): Promise<void>;
}

export interface StackOptions {
  /** Extra environment of the API (e.g. CHAPA_* pointing at a local Chapa stub). */
  apiEnv?: Record<string, string>;
  /** Extra environment of the storefront (e.g. OTEL_* for the trace test). */
  storefrontEnv?: Record<string, string>;
  /**
   * The storefront to run: a directory with build/, server/ and public/ (default apps/storefront; a copy
   * inside apps/storefront resolves the same packages), e.g. one a test deploys a new version into.
   */
  storefrontDir?: string;
}

/** Starts the built API (in-memory database, seeded), storefront and admin on free loopback ports. */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const [apiPort, sfPort, adminPort] = [await freePort(), await freePort(), await freePort()];
  const api = `http://127.0.0.1:${apiPort}/api`;
  const storefront = `http://127.0.0.1:${sfPort}`;
  const admin = `http://127.0.0.1:${adminPort}`;
  const children: ChildProcess[] = [];
  const run = (args: string[], env: Record<string, string>, cwd = root) => {
    const child = spawn(process.execPath, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (c) => (output += c));
    child.stderr!.on('data', (c) => (output += c));
    children.push(child);
    return { child, log: () => output };
  };
  const stop = async () => {
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            c.once('exit', () => resolve());
            c.kill('SIGTERM');
            setTimeout(() => c.kill('SIGKILL'), 5000).unref();
          }),
      ),
    );
  };
  try {
    const a = run(['apps/api/dist/main.js'], {
      NODE_ENV: 'development',
      PORT: String(apiPort),
      HOST: '127.0.0.1',
      EMBEDDED_IN_MEMORY: 'true',
      SEED_ON_EMPTY: 'true',
      // the demo's running sale would change the seeded prices the suites expect (docs/decisions/0095)
      SEED_DEMO_SALE: 'false',
      CORS_ORIGINS: `${storefront},${admin}`,
      STOREFRONT_URL: storefront,
      ADMIN_URL: admin,
      PUBLIC_API_URL: `http://127.0.0.1:${apiPort}`,
      ...options.apiEnv,
    });
    await waitFor(`${api}/health`, a.child, a.log);
    // the storefront's own server (apps/storefront/server/index.cjs: what remix-serve did, plus /metrics)
    const s = run(
      [path.join(options.storefrontDir ?? path.join(root, 'apps/storefront'), 'server/index.cjs')],
      {
        NODE_ENV: 'production',
        PORT: String(sfPort),
        HOST: '127.0.0.1',
        API_URL: api,
        ADMIN_URL: `${admin}/admin`,
        ...options.storefrontEnv,
      },
      options.storefrontDir ?? path.join(root, 'apps/storefront'),
    );
    const d = run(['apps/admin/serve.mjs'], { PORT: String(adminPort), API_URL: api });
    await waitFor(storefront, s.child, s.log);
    await waitFor(`${admin}/admin`, d.child, d.log);
  } catch (error) {
    await stop();
    throw error;
  }
  return { api, storefront, admin, stop };
}

/**
 * One more storefront (production mode, a free loopback port) over a running stack's API, e.g. with other
 * settings: its address, its process and its output so far. `ready: false` returns at once (the caller
 * waits for what it needs, as the workers' test for its workers).
 */
export async function startStorefront(
  stack: Stack,
  env: Record<string, string>,
  { ready = true }: { ready?: boolean } = {},
): Promise<{ url: string; child: ChildProcess; log: () => string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dir = path.join(root, 'apps/storefront');
  const child = spawn(process.execPath, [path.join(dir, 'server/index.cjs')], {
    cwd: dir,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      API_URL: stack.api,
      ADMIN_URL: `${stack.admin}/admin`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  const log = () => output;
  if (ready) await waitFor(url, child, log);
  return { url, child, log };
}

/** How long after now `probe` first holds, asked every 50 ms for at most `ms`; undefined if it never does. */
export async function firstHolds(probe: () => Promise<boolean>, ms = 5000): Promise<number | undefined> {
  const from = Date.now();
  while (Date.now() - from < ms) {
    if (await probe()) return Date.now() - from;
    await new Promise((r) => setTimeout(r, 50));
  }
  return undefined;
}
