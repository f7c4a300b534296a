'use strict';
/**
 * The storefront's Prometheus metrics (docs/decisions/0074-metrics.md): GET /metrics with request
 * durations by method, route template (the Remix route's path, never the raw URL) and status, and
 * Node's default metrics. Open to loopback clients outside production; with METRICS_TOKEN, to a
 * Bearer token; in production only to the token. Anyone else gets the page of an unknown URL.
 */
const { createHash, timingSafeEqual } = require('node:crypto');
const { matchRoutes } = require('@remix-run/router');
const { collectDefaultMetrics, Gauge, Histogram, Registry } = require('prom-client');

const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
const WEAK_TOKEN = /^(change-?me|secret|token|dev)/i;

class MetricsConfigError extends Error {}

/** METRICS_TOKEN and NODE_ENV; in production a short or placeholder token refuses the start. */
function metricsConfig(env = process.env) {
  const production = env.NODE_ENV === 'production';
  const token = env.METRICS_TOKEN?.trim() || undefined;
  if (production && token && (token.length < 32 || WEAK_TOKEN.test(token)))
    throw new MetricsConfigError(
      'METRICS_TOKEN must be a random string of at least 32 characters in production (or unset: /metrics answers 404 there)',
    );
  return { production, token };
}

const digest = (value) => createHash('sha256').update(value).digest();

/** Who may read /metrics: the token as Bearer, or (outside production) a loopback client not behind a proxy. */
function metricsAllowed(config, req) {
  const header = req.headers.authorization;
  if (config.token && typeof header === 'string' && /^Bearer /i.test(header))
    if (timingSafeEqual(digest(header.slice(7).trim()), digest(config.token))) return true;
  if (config.production) return false;
  return (
    LOOPBACK.test(req.socket.remoteAddress ?? '') &&
    req.headers['x-forwarded-for'] === undefined &&
    req.headers.forwarded === undefined
  );
}

/** The Remix routes of a server build as a tree `matchRoutes` reads. */
function routeTree(routes, parentId) {
  return Object.values(routes)
    .filter((route) => route.parentId === parentId)
    .map((route) => ({
      id: route.id,
      path: route.path,
      index: route.index,
      caseSensitive: route.caseSensitive,
      children: routeTree(routes, route.id),
    }));
}

/** `/product/:id` for /product/66f0c..., from the build's routes; `unmatched` when none matches. */
function remixRouteLabeller(build) {
  const tree = routeTree(build.routes, undefined);
  // matchRoutes flattens and ranks the whole route tree at every call (a third of a kept page's CPU, asked
  // twice per request: the log line and the metrics): each address's template is kept, a bounded number
  const known = new Map();
  return (pathname) => {
    let label = known.get(pathname);
    if (label === undefined) {
      const matches = matchRoutes(tree, pathname);
      label = matches?.length
        ? `/${matches
            .map((m) => m.route.path)
            .filter(Boolean)
            .join('/')}`.replace(/\/{2,}/g, '/')
        : 'unmatched';
      if (known.size >= 5000) known.clear();
      known.set(pathname, label);
    }
    return label;
  };
}

const ROUTE = Symbol('metricsRoute');
const STARTED = Symbol('metricsStarted');

/**
 * The metrics of one server: `timer` goes first (times every answer), `label` just before the Remix
 * handler (names the page's route), `handler` answers GET /metrics.
 */
function createMetrics(config, build, clustered) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request’s arrival to the end of its answer, by method, route template and status',
    labelNames: ['method', 'route', 'status_code'],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const observers = new Map();
  const observer = (route, method, status) => {
    const key = `${method} ${route} ${status}`;
    let child = observers.get(key);
    if (!child) observers.set(key, (child = duration.labels({ method, route, status_code: status })));
    return child;
  };
  const routeOf = remixRouteLabeller(build);
  // one of several workers (server/cluster.cjs): the text of all workers' metrics, from the primary
  const text = clustered ? clustered(registry) : () => registry.metrics();
  function finished() {
    const req = this.req;
    // answered before the Remix handler: the build's and public/ files (both served from the root)
    const route = this[ROUTE] ?? 'static';
    const method = METHODS.has(req.method) ? req.method : 'other';
    observer(route, method, this.statusCode).observe((performance.now() - this[STARTED]) / 1000);
  }
  return {
    registry,
    /** The page cache's answers by kind (hit, stale, miss, shared, personal, pass), renders, checks, size. */
    watchPageCache(cache) {
      new Gauge({
        name: 'storefront_page_cache_events',
        help: 'Page cache events since start, by kind (answers: hit, revalidated, stale, miss, shared, templated, personal, pass; renders; checks)',
        labelNames: ['kind'],
        registers: [registry],
        collect() {
          for (const [kind, value] of Object.entries(cache.counts)) this.set({ kind }, value);
        },
      });
      new Gauge({
        name: 'storefront_page_cache_bytes',
        help: 'Bytes of the pages kept (every coding)',
        registers: [registry],
        collect() {
          this.set(cache.lru.bytes);
        },
      });
      new Gauge({
        name: 'storefront_page_cache_entries',
        help: 'Pages kept',
        registers: [registry],
        collect() {
          this.set(cache.lru.size);
        },
      });
    },
    timer(_req, res, next) {
      res[STARTED] = performance.now();
      res.on('finish', finished);
      next();
    },
    label(req, res, next) {
      res[ROUTE] = routeOf(req.path);
      next();
    },
    handler(req, res, next) {
      if (!metricsAllowed(config, req)) return next();
      text().then((body) => {
        res.setHeader('Content-Type', registry.contentType);
        res.setHeader('Cache-Control', 'no-store');
        res[ROUTE] = '/metrics';
        res.end(body);
      }, next);
    },
  };
}

module.exports = { createMetrics, metricsAllowed, metricsConfig, MetricsConfigError, remixRouteLabeller };
