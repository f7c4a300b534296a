import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { REQUEST_ID_HEADER, requestIdFrom } from './request-id';

/** Public reads the cache's doors answer before Express routes them (cache/answer-replay.ts HOT_PATH). */
const EARLY_ROUTE = /^\/api\/(products(\/[^/]+)?|categories|settings\/public)\/?$/;

/**
 * The route template a request was answered by (`/api/products/:id`, never the raw URL, which may
 * carry a reset token or a search): Express's matched route, or for answers given before Express
 * (hot cache hits, the catalogue's early reader) the template of the public read they stand for.
 * Static files and the API docs have one template each; anything else is `unmatched`.
 */
export function routeTemplate(req: IncomingMessage): string {
  const route = (req as { route?: { path?: unknown } }).route?.path;
  if (typeof route === 'string') return route;
  const url = req.url ?? '';
  const at = url.indexOf('?');
  let path = at < 0 ? url : url.slice(0, at);
  if (path.startsWith('/api/api/')) path = path.slice(4);
  const early = EARLY_ROUTE.exec(path);
  if (early) return early[2] ? '/api/products/:id' : `/api/${early[1]}`;
  if (path.startsWith('/api/assets/')) return '/api/assets/*';
  if (path === '/api/docs' || path.startsWith('/api/docs/') || path.startsWith('/api/docs-'))
    return '/api/docs';
  return 'unmatched';
}

/** Routes asked every few seconds by machines (readiness checks, Prometheus): their answers log at debug. */
const PROBES = new Set(['/api/health', '/api/health/live', '/api/health/ready', '/api/metrics']);

/** The signed-in user's id when a guard attached one (never their email, name or phone). */
function userIdOf(req: IncomingMessage): string | undefined {
  const id = (req as { user?: { id?: unknown } }).user?.id;
  return typeof id === 'string' ? id : undefined;
}

const STARTED = Symbol('requestStarted');
const DURATION = Symbol('requestDuration');
type Timed = ServerResponse & { [STARTED]?: number; [DURATION]?: number };

/** Milliseconds from the request's arrival to its answer's end (0.01 ms steps), read once per request. */
function durationOf(res: Timed): number {
  if (res[DURATION] === undefined) {
    const started = res[STARTED] ?? performance.now();
    res[DURATION] = Math.round((performance.now() - started) * 100) / 100;
  }
  return res[DURATION];
}

/** The fields of the one line written per request; the request id is bound by pino-http. */
export function requestLine(req: IncomingMessage, res: ServerResponse): Record<string, unknown> {
  const line: Record<string, unknown> = {
    method: req.method,
    route: routeTemplate(req),
    status: res.statusCode,
    durationMs: durationOf(res),
  };
  const userId = userIdOf(req);
  if (userId !== undefined) line.userId = userId;
  // the client went away before the answer was complete
  if (!res.writableFinished) line.aborted = true;
  return line;
}

const message = (req: IncomingMessage, res: ServerResponse) =>
  `${req.method} ${routeTemplate(req)} ${res.statusCode} ${durationOf(res)}ms`;

/**
 * One log line per request, for every answer the server gives (also those given before Express by
 * the cache's doors): pino-http runs first in the server's 'request' listener, takes the caller's
 * X-Request-Id or makes one, echoes it in the answer, and writes `{ requestId, method, route, status,
 * durationMs, userId? }` when the answer is finished. Headers, URLs and bodies are never logged.
 */
export function attachRequestLog(server: Server, logger: Logger): void {
  const log = pinoHttp({
    logger,
    genReqId: (req, res) => {
      const id = requestIdFrom(req.headers[REQUEST_ID_HEADER]);
      res.setHeader('X-Request-Id', id);
      return id;
    },
    quietReqLogger: true,
    quietResLogger: true,
    customAttributeKeys: { reqId: 'requestId' },
    // req.log and res.log carry the request id only: nothing of the request itself is serialised
    wrapSerializers: false,
    serializers: { req: () => undefined, res: () => undefined },
    customLogLevel: (req, res, error) => {
      if (error || res.statusCode >= 500) return 'error';
      // load balancers' checks and metric scrapes, every few seconds: shown with LOG_LEVEL=debug
      return res.statusCode < 400 && PROBES.has(routeTemplate(req)) ? 'debug' : 'info';
    },
    customSuccessObject: (req, res) => requestLine(req, res),
    customErrorObject: (req, res) => requestLine(req, res),
    customSuccessMessage: message,
    customErrorMessage: message,
  });
  const listeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: Timed) => {
    res[STARTED] = performance.now();
    log(req, res);
    for (const listener of listeners) listener.call(server, req, res);
  });
}
