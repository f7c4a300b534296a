import { Inject, Logger, Module, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { getModelToken, MongooseModule } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { LeasedJob, Leases } from '../../common/lease';
import { APP_CONFIG, type AppConfig } from '../../config';
import { OrdersModule } from '../orders/orders.module';
import { PaymentsController } from './payments.controller';
import { PaymentsService } from './payments.service';
import { ChapaProvider } from './providers/chapa.provider';
import { PAYMENT_PROVIDER, type PaymentProvider } from './providers/payment-provider';
import { TestPaymentProvider } from './providers/test.provider';
import { Payment, PaymentSchema } from './schemas/payment.schema';

/** The lease that lets one instance at a time re-verify payments. */
export const REVERIFY_LEASE = 'payments.reverify';
const DEFAULT_REVERIFY_INTERVAL_MS = 10 * 60 * 1000;
/** A transaction younger than this may still be on the customer's screen; leave it to the return page. */
const REVERIFY_MIN_AGE_MS = 5 * 60 * 1000;

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

@Module({
  imports: [MongooseModule.forFeature([{ name: Payment.name, schema: PaymentSchema }]), OrdersModule],
  controllers: [PaymentsController],
  providers: [
    PaymentsService,
    {
      provide: PAYMENT_PROVIDER,
      inject: [APP_CONFIG, getModelToken(Payment.name)],
      useFactory: (config: AppConfig, payments: Model<Payment>): PaymentProvider => {
        if (config.chapa.secretKey) return new ChapaProvider(config.chapa);
        // config refuses production without a Chapa key unless ALLOW_TEST_PAYMENTS=true was chosen deliberately
        if (config.nodeEnv === 'production') {
          new Logger('Payments').warn(
            'No CHAPA_SECRET_KEY: the offline TEST payment provider is active, nothing is charged',
          );
        }
        return new TestPaymentProvider(payments, config.publicUrl);
      },
    },
  ],
  exports: [PaymentsService],
})
export class PaymentsModule implements OnApplicationBootstrap, OnModuleDestroy {
  /** The re-verification, run by one API instance at a time (the lease REVERIFY_LEASE). */
  job?: LeasedJob;
  private readonly logger = new Logger('Payments');

  constructor(
    private readonly payments: PaymentsService,
    private readonly leases: Leases,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const interval = reverifyIntervalMs(process.env, this.config.nodeEnv);
    if (!interval) return;
    this.job = new LeasedJob(this.leases, REVERIFY_LEASE, interval, () => this.reverify());
    this.job.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.job?.stop(); // releases the lease: another instance takes the job over at its next tick
  }

  private async reverify(): Promise<void> {
    const report = await this.payments.reverifyPending(REVERIFY_MIN_AGE_MS);
    if (report.checked)
      this.logger.log(`re-verified ${report.checked} payment(s): ${JSON.stringify(report)}`);
  }
}
