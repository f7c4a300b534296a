import { Logger, Module } from '@nestjs/common';
import { getModelToken, MongooseModule } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { APP_CONFIG, type AppConfig } from '../../config';
import { OrdersModule } from '../orders/orders.module';
import { PaymentsController } from './payments.controller';
import { PaymentRefunds } from './payment-refunds.service';
import { PaymentReverification } from './payment-reverification.service';
import { PaymentSettlement } from './payment-settlement.service';
import { PaymentWebhooks } from './payment-webhooks.service';
import { PaymentsService } from './payments.service';
import { ChapaProvider } from './providers/chapa.provider';
import { PAYMENT_PROVIDER, type PaymentProvider } from './providers/payment-provider';
import { TestPaymentProvider } from './providers/test.provider';
import { Payment, PaymentSchema } from './schemas/payment.schema';

export { PaymentRefunds } from './payment-refunds.service';
export { REVERIFY_LEASE, reverifyIntervalMs } from './payment-reverification.service';

/**
 * Payments, one service per concern: the customer's side (PaymentsService), settling on the
 * provider's word (PaymentSettlement), Chapa's webhooks (PaymentWebhooks) and the periodic
 * re-verification (PaymentReverification, one instance at a time).
 */
@Module({
  imports: [MongooseModule.forFeature([{ name: Payment.name, schema: PaymentSchema }]), OrdersModule],
  controllers: [PaymentsController],
  providers: [
    PaymentsService,
    PaymentSettlement,
    PaymentWebhooks,
    PaymentReverification,
    PaymentRefunds,
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
  exports: [PaymentsService, PaymentRefunds],
})
export class PaymentsModule {}
