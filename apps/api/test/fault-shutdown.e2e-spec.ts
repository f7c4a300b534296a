import { spawn, type ChildProcess } from 'node:child_process';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');

/**
 * Runs apps/api/src/main.ts in a child process exactly as `node dist/main.js` would, compiling
 * TypeScript on the fly with SWC (as Jest does) so that the test never depends on a stale build.
 */
const LAUNCHER = `
const Module = require('module'); const fs = require('fs'); const path = require('path');
const { transformSync } = require('@swc/core');
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
require(path.join(root, 'apps/api/src/main.ts'));
`;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

interface Answer {
  status: number;
  body: string;
}

interface PendingRequest {
  /** Resolves once the server has read the request head and asked for the body (100 Continue): it is in flight. */
  started: Promise<void>;
  /** Sends the body; resolves with the answer, rejects on a socket error. */
  finish(): Promise<Answer>;
}

/** A POST on its own connection that announces its body with `Expect: 100-continue` and sends it only when told. */
function startPost(port: number, urlPath: string, payload: unknown): PendingRequest {
  const data = JSON.stringify(payload);
  let markStarted!: () => void;
  let failStarted!: (e: Error) => void;
  const started = new Promise<void>((resolve, reject) => ((markStarted = resolve), (failStarted = reject)));
  let req!: http.ClientRequest;
  const answer = new Promise<Answer>((resolve, reject) => {
    req = http.request(
      {
        host: '127.0.0.1', port, path: urlPath, method: 'POST', agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data), expect: '100-continue' },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('continue', () => markStarted());
    req.on('error', (e) => {
      failStarted(e);
      reject(e);
    });
  });
  answer.catch(() => undefined);
  started.catch(() => undefined);
  return {
    started,
    finish: () => {
      req.end(data);
      return answer;
    },
  };
}

/** One plain request, for checking that the stopped server no longer accepts connections. */
function post(port: number, urlPath: string, payload: unknown): Promise<Answer> {
  const request = startPost(port, urlPath, payload);
  return request.started.then(() => request.finish());
}

describe('fault: SIGTERM during load', () => {
  let child: ChildProcess | undefined;
  let output = '';

  afterAll(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  it('finishes every in-flight request with success, refuses new connections, and exits 0', async () => {
    const port = await freePort();
    child = spawn(process.execPath, ['-e', LAUNCHER], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        PORT: String(port),
        HOST: '127.0.0.1',
        EMBEDDED_IN_MEMORY: 'true',
        MONGOMS_ENABLED: 'false',
        SEED_ON_EMPTY: 'false',
        AUTH_RATE_LIMIT: '100000',
        MONGODB_URI: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (c) => (output += c));
    child.stderr!.on('data', (c) => (output += c));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child!.once('exit', (code, signal) => resolve({ code, signal })),
    );

    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`API exited early:\n${output}`);
      if (/API listening/.test(output)) break;
      if (i > 400) throw new Error(`API did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }

    const password = 'Buna@2026x';
    const warmUp = await post(port, '/api/auth/register', { name: 'First Customer', email: 'first@example.et', password });
    expect(warmUp.status).toBe(201);

    // 30 registrations (each hashes a password) that the server has started reading: they are in flight.
    const inFlight = Array.from({ length: 30 }, (_, i) =>
      startPost(port, '/api/auth/register', { name: `Load Tester ${i}`, email: `load${i}@example.et`, password }),
    );
    await Promise.all(inFlight.map((r) => r.started));
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 100));
    const burst = inFlight.map((r) => r.finish());

    const answers = await Promise.all(burst).catch((e) => { throw new Error(`${e}\n${output.slice(-2000)}`); });
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
    for (const a of answers) expect(JSON.parse(a.body)).toMatchObject({ success: true, user: { role: 'customer' } });

    const { code, signal } = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    await expect(post(port, '/api/auth/login', { email: 'load0@example.et', password })).rejects.toThrow();
  }, 60000);
});
