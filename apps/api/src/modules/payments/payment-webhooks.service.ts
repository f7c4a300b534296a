import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError, InvalidDataError } from '../../common/errors/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config';
import { TX_REF_PATTERN, type StoredPayment } from './payment-results';
import { PaymentSettlement } from './payment-settlement.service';
import { Payment } from './schemas/payment.schema';

function hmacHex(secret: string, data: Buffer | string): string {
  return createHmac('sha256', secret).update(data).digest('hex');
}

/** Constant-time comparison of a received hex signature with the expected one. */
function signatureMatches(received: unknown, expected: string): boolean {
  if (typeof received !== 'string' || !received) return false;
  const a = Buffer.from(received.trim().toLowerCase(), 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

const invalidSignature = () =>
  new DomainError('UNAUTHORIZED', 'Invalid webhook signature', undefined, 'INVALID_WEBHOOK_SIGNATURE');

/** Chapa's webhooks: signed, then verified with Chapa before anything changes. */
@Injectable()
export class PaymentWebhooks {
  private readonly logger = new Logger('Payments');

  constructor(
    @InjectModel(Payment.name) private readonly payments: Model<Payment>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly settlement: PaymentSettlement,
  ) {}

  /**
   * A Chapa webhook: the HMAC-SHA256 of the raw body with the webhook secret must match
   * `x-chapa-signature` (or `chapa-signature`); then the transaction is verified with Chapa before
   * anything changes. Unknown references are acknowledged so that Chapa stops retrying.
   */
  async handleWebhook(
    rawBody: Buffer | undefined,
    headers: Record<string, unknown>,
  ): Promise<{ received: true; processed: boolean }> {
    const secret = this.config.chapa.webhookSecret;
    if (!secret || !rawBody?.length) throw invalidSignature();
    const bodySignature = hmacHex(secret, rawBody);
    const trusted =
      signatureMatches(headers['x-chapa-signature'], bodySignature) ||
      signatureMatches(headers['chapa-signature'], bodySignature) ||
      // Chapa also documents chapa-signature as the HMAC of the secret itself; the body is still verified with Chapa.
      signatureMatches(headers['chapa-signature'], hmacHex(secret, secret));
    if (!trusted) throw invalidSignature();

    let event: Record<string, unknown>;
    try {
      event = JSON.parse(rawBody.toString('utf8')) as Record<string, unknown>;
    } catch {
      throw new InvalidDataError('Malformed JSON body', undefined, 'MALFORMED_JSON');
    }
    const data = (event.data && typeof event.data === 'object' ? event.data : {}) as Record<string, unknown>;
    const txRef =
      typeof event.tx_ref === 'string'
        ? event.tx_ref
        : typeof data.tx_ref === 'string'
          ? data.tx_ref
          : undefined;
    if (!txRef || !TX_REF_PATTERN.test(txRef)) return { received: true, processed: false };
    const payment = await this.payments.findOne({ txRef }).lean<StoredPayment>();
    if (!payment) return { received: true, processed: false };
    try {
      const before = payment.status;
      const result = await this.settlement.settle(
        txRef,
        'webhook',
        typeof event.status === 'string' ? event.status : undefined,
      );
      return { received: true, processed: before === 'initialized' && result.status !== 'pending' };
    } catch (error) {
      // Acknowledge anyway: the periodic re-verification settles it once Chapa answers again.
      this.logger.warn(`webhook ${txRef}: verification deferred (${(error as Error).message})`);
      return { received: true, processed: false };
    }
  }
}
