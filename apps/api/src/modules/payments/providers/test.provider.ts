import type { Model } from 'mongoose';
import type { Payment } from '../schemas/payment.schema';
import type {
  InitializedPayment,
  InitializePaymentInput,
  PaymentProvider,
  ProviderRefund,
  ProviderVerification,
  RefundPaymentInput,
} from './payment-provider';
import { PaymentProviderRefusedError } from './payment-provider';

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

  /**
   * Refunds as Chapa's refund API does (POST /v1/refund/{tx_ref}): only a successful transaction,
   * never more than it was paid minus what went back before; answers a refund reference.
   */
  async refund(input: RefundPaymentInput): Promise<ProviderRefund> {
    const payment = await this.payments.findOne({ txRef: input.txRef }).lean();
    if (payment?.testOutcome !== 'success')
      throw new PaymentProviderRefusedError('Refund refused: the transaction was not successful');
    const left = payment.amountSantim - (this.refunded.get(input.txRef) ?? 0);
    if (input.amountSantim > left)
      throw new PaymentProviderRefusedError('Refund refused: the amount exceeds what is left to refund');
    this.refunded.set(input.txRef, (this.refunded.get(input.txRef) ?? 0) + input.amountSantim);
    return { providerReference: `test-refund-${input.reference}` };
  }

  /** What went back per transaction (this process; the orders keep the lasting record). */
  private readonly refunded = new Map<string, number>();
}
