'use strict';
// The storefront's HTTP server: what remix-serve did (compression, the build's assets, public/, the
// Remix handler), plus GET /metrics (server/metrics.cjs) and traces (server/tracing.cjs, started
// before express and http are used), and the page cache of anonymous pages (server/page-cache.cjs). One
// Express app; `npm start` runs it from apps/storefront. With STOREFRONT_WORKERS above 1 this process is
// the primary of that many such servers on one port (server/cluster.cjs).
const cluster = require('node:cluster');
const { primaryMetrics, runPrimary, workersConfig, WorkersConfigError } = require('./cluster.cjs');
const { metricsConfig, MetricsConfigError } = require('./metrics.cjs');
const { logOptions, LogConfigError } = require('./logging.cjs');
const { PageCacheConfigError, pageCacheConfig } = require('./page-cache.cjs');

/** Every setting, checked before anything starts (in the primary too: a worker would only die of it). */
function settings() {
  process.env.NODE_ENV ??= 'production';
  try {
    return {
      workers: workersConfig(process.env),
      config: metricsConfig(process.env),
      logging: logOptions(process.env),
      pages: pageCacheConfig(process.env),
    };
  } catch (error) {
    if (
      !(error instanceof WorkersConfigError) &&
      !(error instanceof MetricsConfigError) &&
      !(error instanceof LogConfigError) &&
      !(error instanceof PageCacheConfigError)
    )
      throw error;
    console.error(`Invalid storefront configuration:\n  - ${error.message}`);
    process.exit(78);
  }
}

const checked = settings();
if (checked.workers > 1 && cluster.isPrimary) runPrimary(checked.workers);
else serve(checked);

function serve({ config, logging, pages }) {
  const { startTracing, stopTracing } = require('./tracing.cjs');

  startTracing();

  const path = require('node:path');
  const { pathToFileURL } = require('node:url');
  const { createRequestHandler: createRemixHandler, installGlobals } = require('@remix-run/node');
  const { createRequestHandler } = require('@remix-run/express');
  const compression = require('compression');
  const express = require('express');
  const { createMetrics, remixRouteLabeller } = require('./metrics.cjs');
  const { createLogger, requestLog } = require('./logging.cjs');
  const { apiChecker, createPageCache, recordApiCalls, remixRenderer } = require('./page-cache.cjs');
  const { languageAddress } = require('./language-address.cjs');

  const APP_DIR = path.resolve(__dirname, '..');

  async function main() {
    const build = await import(pathToFileURL(path.join(APP_DIR, 'build/server/index.js')).href);
    installGlobals({ nativeFetch: build.future.v3_singleFetch });
    // a worker of several: GET /metrics answers for all of them (the primary collects them)
    const metrics = createMetrics(config, build, cluster.isWorker ? primaryMetrics : undefined);
    const logger = createLogger(logging);
    const mode = process.env.NODE_ENV;
    // PAGE_CACHE_MAX_BYTES=0: every page rendered per request, as before the cache (the benchmark's 'before')
    const cache =
      pages.maxBytes > 0
        ? createPageCache({
            ...pages,
            render: remixRenderer(createRemixHandler(build, mode)),
            current: apiChecker({ checkMs: pages.checkMs, fetch: recordApiCalls() }),
            // a shopper's page written into the kept template (app/personal-page.server.ts, docs/decisions/0107)
            personalPage: pages.personal ? build.entry.module.personalPage : undefined,
            logger,
          })
        : undefined;
    if (cache) metrics.watchPageCache(cache);

    const app = express();
    app.disable('x-powered-by');
    // first: the request id (echoed, sent on to the API) and one log line per request (server/logging.cjs)
    app.use(requestLog(logger, remixRouteLabeller(build)));
    app.use(metrics.timer);
    app.get('/metrics', metrics.handler);
    app.use(compression());
    // the service worker (scripts/build-sw.mjs): asked again at every visit, never kept as an immutable
    // asset, so that a new version is found (docs/decisions/0094-pwa.md)
    app.get('/sw.js', (_req, res) =>
      res.sendFile(path.resolve(APP_DIR, build.assetsBuildDirectory, 'sw.js'), {
        headers: { 'Cache-Control': 'no-cache', 'Service-Worker-Allowed': '/' },
      }),
    );
    // every file of the build and of public/ has an extension, no page's address does: a page is not looked
    // for on the disk first (two file-system stats per page were a quarter of a kept page's CPU)
    const filesOnly = (serve) => (req, res, next) =>
      /\.[^/]*$/.test(req.path) ? serve(req, res, next) : next();
    app.use(
      build.publicPath,
      filesOnly(
        express.static(path.resolve(APP_DIR, build.assetsBuildDirectory), { immutable: true, maxAge: '1y' }),
      ),
    );
    app.use(filesOnly(express.static(path.join(APP_DIR, 'public'), { maxAge: '1h' })));
    const pageHandlers = cache ? [metrics.label, cache.middleware] : [metrics.label];
    // the language in the address (server/language-address.cjs): before the page cache, whose pages it redirects
    app.all('*', languageAddress, ...pageHandlers, createRequestHandler({ build, mode }));

    const port = Number(process.env.PORT) || 3000;
    const host = process.env.HOST;
    const server = app.listen(port, ...(host ? [host] : []), () =>
      console.log(
        `[storefront] http://${host || 'localhost'}:${port}${cluster.isWorker ? ` (worker ${process.env.STOREFRONT_WORKER}, pid ${process.pid})` : ''}`,
      ),
    );
    for (const signal of ['SIGTERM', 'SIGINT'])
      process.once(signal, () => server.close(() => stopTracing().then(() => process.exit(0))));
  }

  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
