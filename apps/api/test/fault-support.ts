import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

export const root = path.resolve(__dirname, '..', '..', '..');

/**
 * Runs a TypeScript entry point of this repository in a child process, compiling on the fly with SWC
 * (as Jest does) and resolving @shop/* to the library sources: the fault tests never depend on a stale build.
 */
const LAUNCHER = `
const Module = require('module'); const fs = require('fs'); const path = require('path');
const { transformSync } = require(${JSON.stringify(require.resolve('@swc/core'))});
const root = ${JSON.stringify(root)};
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const lib = /^@shop\\/(shared|i18n|embedded-mongo|api-client)$/.exec(request);
  return resolve.call(this, lib ? path.join(root, 'libs', lib[1], 'src') : request, ...rest);
};
require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022', keepClassNames: true },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
const entry = process.env.TS_ENTRY;
delete process.env.TS_ENTRY;
require(path.join(root, entry));
`;

let launcherPath: string | undefined;

export interface TsProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves when the output matches, rejects if the process exits first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnTs(entry: string, args: string[], env: Record<string, string> = {}): TsProcess {
  if (!launcherPath) {
    launcherPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ts-launcher-')), 'launch.js');
    fs.writeFileSync(launcherPath, LAUNCHER);
  }
  const child = spawn(process.execPath, [launcherPath, ...args], {
    cwd: root,
    env: { ...process.env, ...env, TS_ENTRY: entry },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const waitFor = async (pattern: RegExp, timeoutMs = 30000) => {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(out);
      if (match) return match;
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`${entry} exited early:\n${out}`);
      if (Date.now() > end) throw new Error(`${entry} did not print ${pattern}:\n${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { child, output: () => out, waitFor, exited };
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

export function stopProcess(p: TsProcess | undefined): Promise<unknown> {
  if (!p || p.child.exitCode !== null || p.child.signalCode !== null) return Promise.resolve();
  p.child.kill('SIGKILL');
  return p.exited;
}
