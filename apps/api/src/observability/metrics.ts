import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { PAYMENT_METHODS } from '@shop/shared';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { AnswerStore } from '../cache/answer-store';
import { routeTemplate } from '../common/logging';
import { ShopSignals, type PaymentOutcome } from '../common/metrics/shop-signals';
import { OutboxAdminService } from '../modules/notifications/outbox-admin.service';

/** Seconds; from a cached hit (well under a millisecond) to a slow order placement. */
const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Methods kept as their own label value; anything else Node's parser accepts counts as `other`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const PAYMENT_OUTCOMES: readonly (PaymentOutcome | 'unverified')[] = [
  'success',
  'declined',
  'amount_mismatch',
  'currency_mismatch',
  'unverified',
];
const STOCK_REFUSALS = ['OUT_OF_STOCK', 'INSUFFICIENT_STOCK', 'UNAVAILABLE'];
const OUTBOX_CHANNELS = ['email', 'sms'] as const;
const OUTBOX_STATES = ['pending', 'sending', 'failed'] as const;
/** A scrape never waits longer than this for the outbox counts (the series are left out instead). */
const OUTBOX_COUNT_TIMEOUT_MS = 1000;

/** Node's default metrics, once per process (several apps in one test process share them). */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

type Observer = { observe(seconds: number): void };
const STARTED = Symbol('metricsStarted');
type Timed = ServerResponse<IncomingMessage> & { [STARTED]?: number };

/**
 * The API's Prometheus metrics (docs/decisions/0074-metrics.md): request durations by method, route
 * template and status, Node's default metrics, and the shop's own counts, told by the domain through
 * `ShopSignals` (common/metrics), read from the answer store (cache hits and misses) or counted in
 * the outbox at each scrape. One registry per app (tests run several apps in one process).
 */
@Injectable()
export class ShopMetrics implements OnModuleDestroy {
  readonly registry = new Registry();
  private readonly stopListening: () => void;

  private readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request’s arrival to the end of its answer, by method, route template and status',
    labelNames: ['method', 'route', 'status_code'],
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });
  /** Histogram children by route, method and status: a request costs three Map reads, no label hashing of its own. */
  private readonly observers = new Map<string, Map<string, Map<number, Observer>>>();

  private readonly ordersPlaced = new Counter({
    name: 'shop_orders_placed_total',
    help: 'Orders committed, by payment method',
    labelNames: ['payment_method'],
    registers: [this.registry],
  });
  private readonly payments = new Counter({
    name: 'shop_payments_total',
    help: 'Payments settled (success, or the reason they failed) and provider checks that could not be made (unverified)',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  private readonly stockRefused = new Counter({
    name: 'shop_stock_reservations_refused_total',
    help: 'Order lines whose stock could not be reserved, by refusal code',
    labelNames: ['reason'],
    registers: [this.registry],
  });

  constructor(signals: ShopSignals, answers: AnswerStore, outbox: OutboxAdminService) {
    for (const method of PAYMENT_METHODS) this.ordersPlaced.inc({ payment_method: method }, 0);
    for (const outcome of PAYMENT_OUTCOMES) this.payments.inc({ outcome }, 0);
    for (const reason of STOCK_REFUSALS) this.stockRefused.inc({ reason }, 0);
    const methods = new Set<string>(PAYMENT_METHODS);
    this.stopListening = signals.listen({
      orderPlaced: (method) =>
        this.ordersPlaced.inc({ payment_method: methods.has(method) ? method : 'other' }),
      paymentSettled: (outcome) => this.payments.inc({ outcome }),
      paymentUnverified: () => this.payments.inc({ outcome: 'unverified' }),
      stockRefused: (code) =>
        this.stockRefused.inc({ reason: STOCK_REFUSALS.includes(code) ? code : 'other' }),
    });

    new Counter({
      name: 'shop_cache_requests_total',
      help: 'Anonymous public reads the answer cache could serve (hit) or had to let through (miss)',
      labelNames: ['cache', 'result'],
      registers: [this.registry],
      // the store keeps plain numbers (nothing on the request path but an increment); read at scrape
      collect() {
        this.reset();
        this.inc({ cache: 'answers', result: 'hit' }, answers.counts.hits);
        this.inc({ cache: 'answers', result: 'miss' }, answers.counts.misses);
      },
    });

    new Gauge({
      name: 'shop_outbox_messages',
      help: 'Outbox messages waiting (pending, sending) or failed for good, by channel; counted at each scrape',
      labelNames: ['channel', 'state'],
      registers: [this.registry],
      async collect() {
        this.reset();
        let timer: NodeJS.Timeout | undefined;
        const rows = await Promise.race([
          outbox.backlog(),
          new Promise<undefined>(
            (resolve) => (timer = setTimeout(() => resolve(undefined), OUTBOX_COUNT_TIMEOUT_MS)),
          ),
        ])
          .catch(() => undefined) // the database is away: the series are left out (health says why)
          .finally(() => clearTimeout(timer));
        if (!rows) return;
        for (const channel of OUTBOX_CHANNELS)
          for (const state of OUTBOX_STATES) {
            const row = rows.find((r) => r.channel === channel && r.state === state);
            this.set({ channel, state }, row?.count ?? 0);
          }
      },
    });
  }

  onModuleDestroy(): void {
    this.stopListening();
  }

  /** The Prometheus text of Node's default metrics and this app's. */
  async text(): Promise<string> {
    return (await processMetrics().metrics()) + (await this.registry.metrics());
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /**
   * Times every request the server answers, also those the cache's doors answer before Express: the
   * first 'request' listener notes the time, the answer's 'finish' observes it (one shared listener).
   * Installed when the server starts listening, so that it comes before every 'request' listener
   * other parts wrapped in the meantime (the cache's early door, the request log).
   */
  observe(server: Server): void {
    processMetrics();
    const record = (res: Timed) => this.record(res);
    const finished = function (this: Timed): void {
      record(this);
    };
    const attach = () =>
      server.prependListener('request', (_req: IncomingMessage, res: Timed) => {
        res[STARTED] = performance.now();
        res.on('finish', finished);
      });
    if (server.listening) attach();
    else server.once('listening', attach);
  }

  private record(res: Timed): void {
    const started = res[STARTED];
    if (started === undefined) return;
    const req = res.req;
    const method = METHODS.has(req.method ?? '') ? (req.method as string) : 'other';
    this.observer(routeTemplate(req), method, res.statusCode).observe((performance.now() - started) / 1000);
  }

  private observer(route: string, method: string, status: number): Observer {
    let byMethod = this.observers.get(route);
    if (!byMethod) this.observers.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let observer = byStatus.get(status);
    if (!observer) {
      observer = this.httpDuration.labels({ method, route, status_code: status });
      byStatus.set(status, observer);
    }
    return observer;
  }
}
