import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { LeasedJob, Leases } from '../../common/lease';
import { APP_CONFIG, type AppConfig } from '../../config';
import type { ReverifyReport } from './payment-results';
import { PaymentSettlement } from './payment-settlement.service';
import { PAYMENT_PROVIDER, type PaymentProvider } from './providers/payment-provider';
import { Payment } from './schemas/payment.schema';

/** The lease that lets one instance at a time re-verify payments. */
export const REVERIFY_LEASE = 'payments.reverify';
const DEFAULT_REVERIFY_INTERVAL_MS = 10 * 60 * 1000;
/** A transaction younger than this may still be on the customer's screen; leave it to the return page. */
const REVERIFY_MIN_AGE_MS = 5 * 60 * 1000;
/** Re-verification gives up on transactions older than this: the provider has long expired them. */
const REVERIFY_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** PAYMENT_REVERIFY_INTERVAL_MS: 0 disables; unset means every 10 minutes, except in tests (off). */
export function reverifyIntervalMs(
  env: Record<string, string | undefined>,
  nodeEnv: AppConfig['nodeEnv'],
): number {
  const raw = env.PAYMENT_REVERIFY_INTERVAL_MS;
  if (raw === undefined || raw.trim() === '') return nodeEnv === 'test' ? 0 : DEFAULT_REVERIFY_INTERVAL_MS;
  const value = Number(raw);
  return Number.isInteger(value) && value >= 0 ? value : DEFAULT_REVERIFY_INTERVAL_MS;
}

/**
 * The periodic re-verification: transactions started a while ago and never settled (the customer
 * closed the tab, the webhook was lost) are asked about again, so a completed payment still marks
 * its order paid. One API instance at a time runs it (the lease REVERIFY_LEASE).
 */
@Injectable()
export class PaymentReverification implements OnApplicationBootstrap, OnModuleDestroy {
  job?: LeasedJob;
  private readonly logger = new Logger('Payments');

  constructor(
    @InjectModel(Payment.name) private readonly payments: Model<Payment>,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly leases: Leases,
    private readonly settlement: PaymentSettlement,
  ) {}

  onApplicationBootstrap(): void {
    const interval = reverifyIntervalMs(process.env, this.config.nodeEnv);
    if (!interval) return;
    this.job = new LeasedJob(this.leases, REVERIFY_LEASE, interval, () => this.run());
    this.job.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.job?.stop(); // releases the lease: another instance takes the job over at its next tick
  }

  /**
   * Re-verifies transactions that were started at least `olderThanMs` ago and never settled, at
   * most 200 a run, oldest first.
   */
  async reverifyPending(olderThanMs: number): Promise<ReverifyReport> {
    const now = Date.now();
    const due = await this.payments
      .find({
        status: 'initialized',
        provider: this.provider.name,
        createdAt: { $lte: new Date(now - olderThanMs), $gte: new Date(now - REVERIFY_MAX_AGE_MS) },
      })
      .sort({ createdAt: 1 })
      .limit(200)
      .select({ txRef: 1 })
      .lean();
    const report: ReverifyReport = { checked: 0, paid: 0, failed: 0, pending: 0, errors: 0 };
    for (const { txRef } of due) {
      report.checked++;
      try {
        const result = await this.settlement.settle(txRef, 'reverify');
        if (result.status === 'paid' || result.status === 'refund_pending') report.paid++;
        else if (result.status === 'failed') report.failed++;
        else report.pending++;
      } catch (error) {
        report.errors++;
        this.logger.warn(`re-verification of ${txRef} failed: ${(error as Error).message}`);
      }
    }
    return report;
  }

  private async run(): Promise<void> {
    const report = await this.reverifyPending(REVERIFY_MIN_AGE_MS);
    if (report.checked)
      this.logger.log(`re-verified ${report.checked} payment(s): ${JSON.stringify(report)}`);
  }
}
