'use strict';
/**
 * The storefront's logs (docs/decisions/0072-logs-and-request-ids.md): pino, JSON lines in production
 * (LOG_FORMAT=json, the default there), one readable line per entry elsewhere (pino-pretty); one line
 * per request `{ requestId, method, route, status, durationMs }` (the page's route template, never the
 * URL, headers or body). The request id is the caller's X-Request-Id when sane, a new UUID otherwise;
 * it is echoed in the answer and kept in `requestContext` while the page's loaders and actions run,
 * so that app/session.server.ts sends it on to the API: one id follows a click through both logs.
 */
const { AsyncLocalStorage } = require('node:async_hooks');
const { randomUUID } = require('node:crypto');
const pino = require('pino');
const { pinoHttp } = require('pino-http');

/** Shared with the server build (a module of its own) through a global symbol: app/request-id.server.ts. */
const CONTEXT_KEY = Symbol.for('shop.storefront.requestContext');
const requestContext = (globalThis[CONTEXT_KEY] ??= new AsyncLocalStorage());

/** At most 128 visible ASCII characters, as the API accepts (apps/api/src/common/logging/request-id.ts). */
const SANE_ID = /^[\x21-\x7e]{1,128}$/;

function requestIdFrom(header) {
  const value = Array.isArray(header) ? header[0] : header;
  return typeof value === 'string' && SANE_ID.test(value) ? value : randomUUID();
}

class LogConfigError extends Error {}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** LOG_FORMAT (json | pretty) and LOG_LEVEL, refused at start when unknown. */
function logOptions(env = process.env) {
  const format = env.LOG_FORMAT?.trim().toLowerCase() || (env.NODE_ENV === 'production' ? 'json' : 'pretty');
  if (format !== 'json' && format !== 'pretty')
    throw new LogConfigError(`LOG_FORMAT must be json or pretty (got "${env.LOG_FORMAT}")`);
  const level = env.LOG_LEVEL?.trim().toLowerCase() || 'info';
  if (!LEVELS.includes(level)) throw new LogConfigError(`LOG_LEVEL must be one of ${LEVELS.join(', ')}`);
  return { format, level };
}

/** The storefront's pino logger; `destination` stands in for stdout (tests). */
function createLogger({ format, level }, destination) {
  const settings = {
    level,
    base: { service: 'storefront', pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
  };
  if (format === 'pretty') {
    const pretty = require('pino-pretty');
    return pino(
      settings,
      pretty({
        sync: true,
        singleLine: true,
        colorize: false,
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname,service,method,route,status,durationMs',
        destination: destination ?? 1,
      }),
    );
  }
  return pino(settings, destination ?? pino.destination({ dest: 1, sync: false }));
}

/**
 * What answered: a page (the catch-all route, named by `pageRoute(pathname)`, client navigations'
 * `.data` requests as their page), a route of the server's own (`/metrics`), or a static file.
 */
function routeOf(req, pageRoute) {
  const route = req.route?.path;
  if (route === undefined) return 'static';
  if (route !== '*') return route;
  let page = req.path;
  if (page === '/_root.data') page = '/';
  else if (page.endsWith('.data')) page = page.slice(0, -'.data'.length);
  return pageRoute(page);
}

/** Express middleware, first of all: the request id, its echo, the log line and the context of the API calls. */
function requestLog(logger, pageRoute) {
  const line = (req, res, durationMs) => {
    const entry = { method: req.method, route: routeOf(req, pageRoute), status: res.statusCode, durationMs };
    if (!res.writableFinished) entry.aborted = true;
    return entry;
  };
  const log = pinoHttp({
    logger,
    genReqId: (req, res) => {
      const id = requestIdFrom(req.headers['x-request-id']);
      res.setHeader('X-Request-Id', id);
      return id;
    },
    quietReqLogger: true,
    quietResLogger: true,
    customAttributeKeys: { reqId: 'requestId', responseTime: 'durationMs' },
    wrapSerializers: false,
    serializers: { req: () => undefined, res: () => undefined },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessObject: (req, res, value) => line(req, res, value.durationMs),
    customErrorObject: (req, res, _error, value) => line(req, res, value.durationMs),
    customSuccessMessage: (req, res, ms) =>
      `${req.method} ${routeOf(req, pageRoute)} ${res.statusCode} ${ms}ms`,
    customErrorMessage: (req, res) => `${req.method} ${routeOf(req, pageRoute)} ${res.statusCode}`,
  });
  return (req, res, next) => {
    log(req, res);
    requestContext.run({ requestId: req.id }, next);
  };
}

module.exports = { createLogger, logOptions, LogConfigError, requestContext, requestIdFrom, requestLog };
