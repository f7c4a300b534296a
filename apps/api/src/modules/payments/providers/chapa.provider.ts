import { Logger } from '@nestjs/common';
import type { AppConfig } from '../../../config';
import {
  amountToSantim,
  PaymentProviderRefusedError,
  PaymentProviderUnavailableError,
  santimToAmountString,
  type InitializedPayment,
  type InitializePaymentInput,
  type PaymentProvider,
  type ProviderRefund,
  type ProviderVerification,
  type RefundPaymentInput,
} from './payment-provider';

const REQUEST_TIMEOUT_MS = 15_000;

interface ChapaAnswer {
  message?: unknown;
  status?: unknown;
  data?: Record<string, unknown> | null;
}

function messageText(message: unknown): string {
  if (typeof message === 'string') return message;
  if (message && typeof message === 'object') {
    return Object.values(message as Record<string, unknown>)
      .flat()
      .map(String)
      .join('; ');
  }
  return 'no message';
}

/** Chapa (https://developer.chapa.co): initialize and verify with the secret key as Bearer token. */
export class ChapaProvider implements PaymentProvider {
  readonly name = 'chapa' as const;
  private readonly logger = new Logger('Chapa');

  constructor(private readonly chapa: AppConfig['chapa']) {}

  async initialize(input: InitializePaymentInput): Promise<InitializedPayment> {
    const body = {
      amount: santimToAmountString(input.amountSantim),
      currency: input.currency,
      // a guest may have given no email: Chapa then has the phone
      ...(input.email ? { email: input.email } : {}),
      first_name: input.firstName,
      last_name: input.lastName,
      ...(input.phoneNumber ? { phone_number: input.phoneNumber } : {}),
      tx_ref: input.txRef,
      callback_url: input.callbackUrl,
      return_url: input.returnUrl,
      customization: { title: input.title, description: input.description },
    };
    const { status, answer } = await this.call('POST', '/v1/transaction/initialize', body);
    const checkoutUrl = answer?.data?.checkout_url;
    if (status >= 200 && status < 300 && answer?.status === 'success' && typeof checkoutUrl === 'string') {
      return { checkoutUrl };
    }
    this.logger.warn(`initialize ${input.txRef} refused (${status}): ${messageText(answer?.message)}`);
    throw new PaymentProviderRefusedError(`Payment initialization failed: ${messageText(answer?.message)}`);
  }

  async verify(txRef: string): Promise<ProviderVerification> {
    const { status, answer } = await this.call('GET', `/v1/transaction/verify/${encodeURIComponent(txRef)}`);
    if (status === 401 || status === 403) {
      // Our key is wrong: nothing the customer did, and nothing to conclude about the payment.
      throw new PaymentProviderUnavailableError('Payment verification error');
    }
    const data = answer?.data;
    if (!data || typeof data !== 'object') {
      // "Invalid transaction or Transaction not found": the customer has not paid (yet).
      return { status: 'pending', message: messageText(answer?.message) };
    }
    if (typeof data.tx_ref === 'string' && data.tx_ref !== txRef) {
      return { status: 'failed', message: 'The provider answered for another transaction' };
    }
    const dataStatus = String(data.status ?? '').toLowerCase();
    const outcome: ProviderVerification['status'] =
      dataStatus === 'success'
        ? 'success'
        : ['failed', 'cancelled', 'canceled', 'reversed'].includes(dataStatus)
          ? 'failed'
          : 'pending';
    return {
      status: outcome,
      amountSantim: amountToSantim(data.amount),
      currency: typeof data.currency === 'string' ? data.currency : undefined,
      providerReference: typeof data.reference === 'string' ? data.reference : undefined,
      message: messageText(answer?.message),
    };
  }

  /**
   * Chapa's refund API (https://developer.chapa.co/integrations/refund): POST /v1/refund/{tx_ref}
   * with reason, amount (ETB as text), meta and reference; answers { message, status, data }.
   */
  async refund(input: RefundPaymentInput): Promise<ProviderRefund> {
    const body = {
      reason: input.reason,
      amount: santimToAmountString(input.amountSantim),
      meta: { reference: input.reference },
      reference: input.reference,
    };
    const { status, answer } = await this.call('POST', `/v1/refund/${encodeURIComponent(input.txRef)}`, body);
    if (status >= 200 && status < 300 && answer?.status === 'success') {
      const data = answer.data ?? {};
      const ref = data.ref_id ?? data.reference ?? data.refund_reference;
      return { providerReference: typeof ref === 'string' ? ref : undefined };
    }
    this.logger.warn(`refund ${input.txRef} refused (${status}): ${messageText(answer?.message)}`);
    throw new PaymentProviderRefusedError(`Refund refused by Chapa: ${messageText(answer?.message)}`);
  }

  private async call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; answer?: ChapaAnswer }> {
    let response: Response;
    try {
      response = await fetch(`${this.chapa.baseUrl}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${this.chapa.secretKey}`,
          Accept: 'application/json',
          ...(body ? { 'Content-Type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      this.logger.warn(`${method} ${path} unreachable: ${(error as Error).message}`);
      throw new PaymentProviderUnavailableError(
        method === 'GET' ? 'Payment verification error' : 'Payment service is unavailable, please try again',
      );
    }
    if (response.status >= 500) {
      this.logger.warn(`${method} ${path} answered ${response.status}`);
      throw new PaymentProviderUnavailableError(
        method === 'GET' ? 'Payment verification error' : 'Payment service is unavailable, please try again',
      );
    }
    const text = await response.text();
    try {
      return { status: response.status, answer: JSON.parse(text) as ChapaAnswer };
    } catch {
      this.logger.warn(`${method} ${path} answered ${response.status} with a body that is not JSON`);
      throw new PaymentProviderUnavailableError(
        method === 'GET' ? 'Payment verification error' : 'Payment service is unavailable, please try again',
      );
    }
  }
}
