import { Inject, Logger, Module, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { getModelToken, MongooseModule } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { APP_CONFIG, type AppConfig } from '../../config';
import { OrdersModule } from '../orders/orders.module';
import { PaymentsController } from './payments.controller';
import { PaymentsService } from './payments.service';
import { ChapaProvider } from './providers/chapa.provider';
import { PAYMENT_PROVIDER, type PaymentProvider } from './providers/payment-provider';
import { TestPaymentProvider } from './providers/test.provider';
import { Payment, PaymentSchema } from './schemas/payment.schema';

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
  private timer?: NodeJS.Timeout;
  private running = false;
  private readonly logger = new Logger('Payments');

  constructor(
    private readonly payments: PaymentsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const interval = reverifyIntervalMs(process.env, this.config.nodeEnv);
    if (!interval) return;
    this.timer = setInterval(() => void this.reverify(), interval);
    this.timer.unref(); // never keeps the process alive on its own
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private async reverify(): Promise<void> {
    if (this.running) return; // a slow provider must not stack runs
    this.running = true;
    try {
      const report = await this.payments.reverifyPending(REVERIFY_MIN_AGE_MS);
      if (report.checked)
        this.logger.log(`re-verified ${report.checked} payment(s): ${JSON.stringify(report)}`);
    } catch (error) {
      this.logger.warn(`re-verification failed: ${(error as Error).message}`);
    } finally {
      this.running = false;
    }
  }
}
