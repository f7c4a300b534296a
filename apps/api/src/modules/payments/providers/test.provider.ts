import type { Model } from 'mongoose';
import type { Payment } from '../schemas/payment.schema';
import type {
  InitializedPayment,
  InitializePaymentInput,
  PaymentProvider,
  ProviderVerification,
} from './payment-provider';

/**
 * Stands in for Chapa when no keys are configured, so the whole checkout works offline. The
 * "checkout" is a page of this API where the customer chooses success or failure; the choice is
 * kept on the payment record, and verify reads it back as a provider would. Nothing is charged.
 */
export class TestPaymentProvider implements PaymentProvider {
  readonly name = 'test' as const;

  constructor(
    private readonly payments: Model<Payment>,
    private readonly publicUrl: string,
  ) {}

  async initialize(input: InitializePaymentInput): Promise<InitializedPayment> {
    return { checkoutUrl: `${this.publicUrl}/api/payments/test/${encodeURIComponent(input.txRef)}` };
  }

  async verify(txRef: string): Promise<ProviderVerification> {
    const payment = await this.payments.findOne({ txRef }).lean();
    if (!payment?.testOutcome) return { status: 'pending', message: 'Test payment not completed yet' };
    return {
      status: payment.testOutcome,
      amountSantim: payment.amountSantim,
      currency: payment.currency,
      providerReference: `test-${txRef}`,
      message: 'Test payment',
    };
  }
}
