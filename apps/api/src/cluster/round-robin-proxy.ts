import {
  Agent,
  createServer,
  request as httpRequest,
  type ClientRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** An API instance behind the proxy. */
export interface Upstream {
  host: string;
  port: number;
}

export interface RoundRobinProxy {
  server: Server;
  port: number;
  /** How many requests each upstream was given, in the order of `upstreams`. */
  served: number[];
  /** Whether each upstream is taken for requests now (its last check or connection succeeded). */
  isUp(index: number): boolean;
  close(): Promise<void>;
}

export interface RoundRobinProxyOptions {
  upstreams: Upstream[];
  port: number;
  host?: string;
  /** The readiness check asked of each upstream (default `/api/health`: 200, or 503 without a database). */
  healthPath?: string;
  /** How often each upstream is checked (default 1000 ms). */
  healthIntervalMs?: number;
  /** A check not answered within this long counts as failed (default 2000 ms). */
  healthTimeoutMs?: number;
  /**
   * Failed checks in a row (timed out, or not 2xx) that take an upstream out (default 3): one slow
   * answer from a busy instance does not. A refused or reset connection takes it out at once.
   */
  healthFailures?: number;
  /** Told when an upstream is marked down or back up. */
  log?: (line: string) => void;
}

/** Hop-by-hop headers (RFC 9110 §7.6.1) are never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
/** Methods safe to send again after an instance failed before answering (as nginx's default). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS']);

function forwardedHeaders(req: IncomingMessage): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  }
  const client = req.socket.remoteAddress ?? '';
  const prior = req.headers['x-forwarded-for'];
  headers['x-forwarded-for'] = prior ? `${String(prior)}, ${client}` : client;
  headers['x-forwarded-proto'] ??= 'http';
  if (req.headers.host) headers['x-forwarded-host'] ??= req.headers.host;
  return headers;
}

/** The API's one error shape (common/error.dto.ts). */
function sendError(res: ServerResponse, status: number, message: string, code: string) {
  if (res.headersSent) return void res.destroy();
  const body = JSON.stringify({ success: false, statusCode: status, message, code, params: {} });
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Retry-After': '1',
  });
  res.end(body);
}

const UNAVAILABLE = 'The service is not available right now, please try again shortly';

/**
 * A small local load balancer for `npm run start:cluster`: each request goes to the next API
 * instance in turn, with the client's address in X-Forwarded-For (the API trusts loopback proxies,
 * so rate limits still see the client). Bodies and answers are streamed, never buffered.
 *
 * Faults: every instance's readiness (`GET /api/health`) is checked every second; an instance that
 * refuses a connection, or fails 3 checks in a row (2 s each), is taken out of the rotation until a
 * check succeeds. One out only for its checks still gets requests when no instance is up.
 * A request that never reached an instance (its connection failed before a byte was sent) is sent
 * to the next healthy one; one an instance may have received is never sent again (an order is never
 * placed twice), except GET/HEAD/OPTIONS without an answer yet, as nginx does. With no instance up
 * the answer is 503 SERVICE_UNAVAILABLE. Not a production load balancer (deploy/api-lb.conf is).
 */
export function startRoundRobinProxy(options: RoundRobinProxyOptions): Promise<RoundRobinProxy> {
  const { upstreams } = options;
  if (!upstreams.length) throw new Error('startRoundRobinProxy: no upstreams');
  const healthPath = options.healthPath ?? '/api/health';
  const healthIntervalMs = options.healthIntervalMs ?? 1000;
  const healthTimeoutMs = options.healthTimeoutMs ?? 2000;
  const healthFailures = options.healthFailures ?? 3;
  const log = options.log ?? (() => undefined);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const served = upstreams.map(() => 0);
  const up = upstreams.map(() => true);
  /** When each upstream last failed a request: a check begun before that does not bring it back. */
  const failedAt = upstreams.map(() => 0);
  const checking = upstreams.map(() => false);
  /** Failed checks in a row of each upstream, and whether it is out only for those (it still listens). */
  const failedChecks = upstreams.map(() => 0);
  const onlySlow = upstreams.map(() => false);
  let next = 0;
  let closed = false;

  const name = (at: number) => `${upstreams[at].host}:${upstreams[at].port}`;
  const markDown = (at: number, why: string, slow = false) => {
    failedAt[at] = Date.now();
    onlySlow[at] = slow && (onlySlow[at] || up[at]);
    if (!up[at]) return;
    up[at] = false;
    log(`${name(at)} down (${why}): routing around it`);
  };
  const markUp = (at: number) => {
    onlySlow[at] = false;
    if (up[at]) return;
    up[at] = true;
    log(`${name(at)} healthy again: back in the rotation`);
  };

  const check = (at: number) => {
    if (checking[at] || closed) return;
    checking[at] = true;
    const begun = Date.now();
    let done = false;
    const finish = (ok: boolean, why: string, refused = false) => {
      if (done) return;
      done = true;
      checking[at] = false;
      if (closed) return;
      if (ok) {
        failedChecks[at] = 0;
        if (begun > failedAt[at]) markUp(at);
      } else if (refused) markDown(at, why);
      else if (++failedChecks[at] >= healthFailures) markDown(at, why, true);
    };
    const probe = httpRequest(
      { host: upstreams[at].host, port: upstreams[at].port, path: healthPath, method: 'GET', agent: false },
      (answer) => {
        answer.resume();
        const status = answer.statusCode ?? 0;
        finish(status >= 200 && status < 300, `health ${status}`);
      },
    );
    probe.setTimeout(healthTimeoutMs, () => {
      probe.destroy();
      finish(false, 'health check timed out');
    });
    probe.on('error', (error: NodeJS.ErrnoException) => finish(false, error.code ?? error.message, true));
    probe.end();
  };
  const timer = setInterval(() => upstreams.forEach((_, at) => check(at)), healthIntervalMs);
  timer.unref();

  /**
   * The next upstream in turn that is up and not yet tried for this request; with none up, one that
   * is out only for failing its checks (busy, or without its database: it may still answer).
   */
  const pick = (tried: Set<number>): number | undefined => {
    for (const usable of [(at: number) => up[at], (at: number) => onlySlow[at]]) {
      for (let i = 0; i < upstreams.length; i++) {
        const at = (next + i) % upstreams.length;
        if (usable(at) && !tried.has(at)) {
          next = at + 1;
          return at;
        }
      }
    }
    return undefined;
  };

  const server = createServer((req, res) => {
    const tried = new Set<number>();
    const hasBody =
      req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
    const resendable = IDEMPOTENT.has(req.method ?? '') && !hasBody;
    let current: ClientRequest | undefined;
    req.on('aborted', () => current?.destroy());

    const attempt = () => {
      const at = pick(tried);
      if (at === undefined) return sendError(res, 503, UNAVAILABLE, 'SERVICE_UNAVAILABLE');
      tried.add(at);
      served[at] += 1;
      const target = upstreams[at];
      let sent = false;
      const upstream = httpRequest(
        {
          host: target.host,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: forwardedHeaders(req),
          agent,
        },
        (answer) => {
          const headers: Record<string, string | string[]> = {};
          for (const [header, value] of Object.entries(answer.headers)) {
            if (value !== undefined && !HOP_BY_HOP.has(header)) headers[header] = value;
          }
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers);
          answer.pipe(res);
          answer.on('error', () => res.destroy());
        },
      );
      current = upstream;
      // the body is only read once a connection stands: a refused one leaves it for the next instance
      const send = () => {
        sent = true;
        if (hasBody) req.pipe(upstream);
        else upstream.end();
      };
      upstream.on('socket', (socket) => {
        if (socket.connecting) socket.once('connect', send);
        else send();
      });
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        if (res.headersSent || res.destroyed) return void res.destroy();
        if (!sent) {
          markDown(at, error.code ?? error.message);
          return attempt();
        }
        if (error.code === 'ECONNREFUSED') markDown(at, error.code);
        if (resendable) return attempt();
        // the instance may have received it: never sent twice (the client may retry, with its Idempotency-Key)
        sendError(res, 502, UNAVAILABLE, 'SERVICE_UNAVAILABLE');
      });
    };
    attempt();
  });
  server.keepAliveTimeout = 5000;

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => {
      server.off('error', reject);
      resolve({
        server,
        port: (server.address() as AddressInfo).port,
        served,
        isUp: (index) => up[index],
        close: () =>
          new Promise<void>((done) => {
            closed = true;
            clearInterval(timer);
            server.close(() => done());
            server.closeAllConnections();
            agent.destroy();
          }),
      });
    });
  });
}
