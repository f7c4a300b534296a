import * as http from 'node:http';
import { freePort, spawnTs, stopProcess, type TsProcess } from './fault-support';

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
        host: '127.0.0.1',
        port,
        path: urlPath,
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(data),
          expect: '100-continue',
        },
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
  let api: TsProcess | undefined;

  afterAll(() => stopProcess(api));

  it('finishes every in-flight request with success, refuses new connections, and exits 0', async () => {
    const port = await freePort();
    api = spawnTs('apps/api/src/main.ts', [], {
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      EMBEDDED_IN_MEMORY: 'true',
      MONGOMS_ENABLED: 'false',
      SEED_ON_EMPTY: 'false',
      AUTH_RATE_LIMIT: '100000',
      MONGODB_URI: '',
    });
    await api.waitFor(/API listening/);

    const password = 'Buna@2026x';
    const warmUp = await post(port, '/api/auth/register', {
      name: 'First Customer',
      email: 'first@example.et',
      password,
    });
    expect(warmUp.status).toBe(201);

    // 30 registrations (each hashes a password) that the server has started reading: they are in flight.
    const inFlight = Array.from({ length: 30 }, (_, i) =>
      startPost(port, '/api/auth/register', {
        name: `Load Tester ${i}`,
        email: `load${i}@example.et`,
        password,
      }),
    );
    await Promise.all(inFlight.map((r) => r.started));
    api.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 100));
    const burst = inFlight.map((r) => r.finish());

    const answers = await Promise.all(burst).catch((e) => {
      throw new Error(`${e}\n${api!.output().slice(-2000)}`);
    });
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
    for (const a of answers)
      expect(JSON.parse(a.body)).toMatchObject({ success: true, user: { role: 'customer' } });

    expect(await api.exited).toEqual({ code: 0, signal: null });
    await expect(post(port, '/api/auth/login', { email: 'load0@example.et', password })).rejects.toThrow();
  }, 60000);
});
