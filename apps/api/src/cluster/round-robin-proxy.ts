import { Agent, createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
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
  close(): Promise<void>;
}

/** An upstream that refused a connection is skipped this long. */
const DOWN_FOR_MS = 2000;
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

function sendError(res: import('node:http').ServerResponse, status: number, message: string, code: string) {
  if (res.headersSent) return void res.destroy();
  const body = JSON.stringify({ success: false, statusCode: status, message, code, params: {} });
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

/**
 * A small local load balancer for `npm run start:cluster`: each request goes to the next API
 * instance in turn (skipping one that refused a connection in the last two seconds), with the
 * client's address in X-Forwarded-For (the API trusts loopback proxies, so rate limits still see the
 * client). Bodies and answers are streamed, never buffered. Not a production load balancer.
 */
export function startRoundRobinProxy(options: {
  upstreams: Upstream[];
  port: number;
  host?: string;
}): Promise<RoundRobinProxy> {
  const { upstreams } = options;
  if (!upstreams.length) throw new Error('startRoundRobinProxy: no upstreams');
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const downUntil = upstreams.map(() => 0);
  const served = upstreams.map(() => 0);
  let next = 0;

  const pick = (): number => {
    const now = Date.now();
    for (let i = 0; i < upstreams.length; i++) {
      const at = (next + i) % upstreams.length;
      if (downUntil[at] <= now) {
        next = at + 1;
        return at;
      }
    }
    return next++ % upstreams.length; // all marked down: try anyway
  };

  const server = createServer((req, res) => {
    const at = pick();
    const target = upstreams[at];
    served[at] += 1;
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
        for (const [name, value] of Object.entries(answer.headers)) {
          if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
        }
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers);
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      },
    );
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') downUntil[at] = Date.now() + DOWN_FOR_MS;
      sendError(
        res,
        502,
        'The service is not available right now, please try again shortly',
        'SERVICE_UNAVAILABLE',
      );
    });
    req.pipe(upstream);
    req.on('aborted', () => upstream.destroy());
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
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
            agent.destroy();
          }),
      });
    });
  });
}
