'use strict';
/**
 * The storefront as several processes on one machine (docs/decisions/0106-storefront-workers.md).
 * STOREFRONT_WORKERS (a whole number from 1 to 64, or `auto`: one per core; default 1) workers share the
 * listening port through Node's cluster module; the primary only starts them, starts again one that
 * exits (after 0.5 s, doubling up to 10 s while it keeps dying), collects their metrics for GET /metrics
 * (asked of any worker, answered for all) and, on SIGTERM or SIGINT, stops them (each finishing its
 * requests) before it exits. Each worker is the whole server of server/index.cjs, with a page cache of
 * its own. A worker whose primary is gone exits (Node's cluster module does that).
 */
const cluster = require('node:cluster');
const os = require('node:os');
const { AggregatorRegistry } = require('prom-client');

const MAX_WORKERS = 64;
const METRICS_REQUEST = 'storefront:metrics-request';
const METRICS_ANSWER = 'storefront:metrics-answer';
/** How long a worker waits for the primary's metrics (prom-client asks every worker within 5 s). */
const METRICS_TIMEOUT_MS = 6_000;
/** How long the stopping primary waits for its workers before it exits anyway. */
const STOP_WAIT_MS = 15_000;

class WorkersConfigError extends Error {}

/** STOREFRONT_WORKERS: how many server processes (1: the server itself, no primary). */
function workersConfig(env = process.env, cores = os.availableParallelism()) {
  const raw = env.STOREFRONT_WORKERS?.trim();
  if (!raw) return 1;
  if (raw.toLowerCase() === 'auto') return Math.max(1, Math.min(MAX_WORKERS, cores));
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > MAX_WORKERS)
    throw new WorkersConfigError(
      `STOREFRONT_WORKERS must be a whole number from 1 to ${MAX_WORKERS}, or auto (got "${raw}")`,
    );
  return value;
}

/** The delay before a worker that exited is started again: 0.5 s, doubling while it keeps dying soon. */
class RestartDelay {
  constructor() {
    this.delay = 0;
  }
  /** `ranMs`: how long the worker ran; one that ran 30 s or more starts again after 0.5 s. */
  next(ranMs) {
    this.delay = ranMs >= 30_000 || this.delay === 0 ? 500 : Math.min(this.delay * 2, 10_000);
    return this.delay;
  }
}

/** In the primary: starts `count` workers and keeps them running until SIGTERM/SIGINT. */
function runPrimary(count, log = (line) => console.log(`[storefront] ${line}`)) {
  const aggregator = new AggregatorRegistry();
  let stopping = false;
  const timers = new Set();

  const fork = (slot) => {
    const worker = cluster.fork({ STOREFRONT_WORKER: String(slot.index) });
    const started = Date.now();
    worker.on('exit', (code, signal) => {
      if (stopping) return;
      const delay = slot.delay.next(Date.now() - started);
      log(
        `worker ${slot.index} (pid ${worker.process.pid}) exited (${signal ?? code}); starting it again in ${delay} ms`,
      );
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!stopping) fork(slot);
      }, delay);
      timers.add(timer);
    });
    return worker;
  };
  for (let index = 1; index <= count; index++) fork({ index, delay: new RestartDelay() });

  // a worker asked for GET /metrics: every worker's metrics, summed (prom-client's aggregation)
  cluster.on('message', (worker, message) => {
    if (message?.type !== METRICS_REQUEST) return;
    aggregator.clusterMetrics().then(
      (text) => worker.isConnected() && worker.send({ type: METRICS_ANSWER, id: message.id, text }),
      (error) =>
        worker.isConnected() &&
        worker.send({ type: METRICS_ANSWER, id: message.id, error: String(error?.message ?? error) }),
    );
  });

  const stop = () => {
    if (stopping) return;
    stopping = true;
    for (const timer of timers) clearTimeout(timer);
    const workers = Object.values(cluster.workers ?? {});
    const exited = workers.map(
      (w) => new Promise((resolve) => (w.isDead() ? resolve() : w.once('exit', resolve))),
    );
    for (const worker of workers) worker.process.kill('SIGTERM');
    const late = setTimeout(() => {
      for (const worker of workers) if (!worker.isDead()) worker.process.kill('SIGKILL');
    }, STOP_WAIT_MS);
    Promise.all(exited).then(() => {
      clearTimeout(late);
      process.exit(0);
    });
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  log(`primary (pid ${process.pid}) started ${count} workers`);
}

/** In a worker: the metrics of all workers, from the primary (GET /metrics). */
function primaryMetrics(registry) {
  AggregatorRegistry.setRegistries([registry]);
  // constructing one installs prom-client's answer to the primary's request for this worker's metrics
  new AggregatorRegistry();
  const waiting = new Map();
  let next = 0;
  process.on('message', (message) => {
    if (message?.type !== METRICS_ANSWER) return;
    const pending = waiting.get(message.id);
    if (!pending) return;
    waiting.delete(message.id);
    clearTimeout(pending.timer);
    if (message.error) pending.reject(new Error(message.error));
    else pending.resolve(message.text);
  });
  return () =>
    new Promise((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error('the primary did not answer with the metrics'));
      }, METRICS_TIMEOUT_MS);
      waiting.set(id, { resolve, reject, timer });
      process.send({ type: METRICS_REQUEST, id });
    });
}

module.exports = { primaryMetrics, RestartDelay, runPrimary, workersConfig, WorkersConfigError };
