import { toBirrText, toSantim } from '@shop/shared';
import { DomainError } from '../../../common/errors/domain-error';
import type { PaymentProviderName } from '../schemas/payment.schema';

export const PAYMENT_PROVIDER = Symbol('PAYMENT_PROVIDER');

export interface InitializePaymentInput {
  txRef: string;
  amountSantim: number;
  currency: string;
  email: string;
  firstName: string;
  lastName: string;
  phoneNumber?: string;
  title: string;
  description: string;
  callbackUrl: string;
  returnUrl: string;
}

export interface InitializedPayment {
  /** Where the browser goes to pay. */
  checkoutUrl: string;
}

/** What the provider says about a transaction; the service compares amount and currency with the order. */
export interface ProviderVerification {
  status: 'success' | 'failed' | 'pending';
  amountSantim?: number;
  currency?: string;
  providerReference?: string;
  message?: string;
}

/** A refund asked of the provider (Chapa: POST /v1/refund/{tx_ref}). */
export interface RefundPaymentInput {
  /** The paid transaction's tx_ref. */
  txRef: string;
  amountSantim: number;
  reason: string;
  /** Our own reference for this refund (a merchant reference Chapa keeps with it). */
  reference: string;
}

export interface ProviderRefund {
  /** The provider's reference for the refund, when it gives one. */
  providerReference?: string;
}

/**
 * A payment provider (Vendure's payment-method handler idea): Chapa in production, a local test
 * provider when no keys are configured. Chosen in PaymentsModule from configuration.
 */
export interface PaymentProvider {
  readonly name: PaymentProviderName;
  initialize(input: InitializePaymentInput): Promise<InitializedPayment>;
  verify(txRef: string): Promise<ProviderVerification>;
  /** Gives money of a paid transaction back; throws PaymentProviderRefusedError when refused. */
  refund(input: RefundPaymentInput): Promise<ProviderRefund>;
}

/** The provider could not be reached or answered nonsense: the caller may retry later. */
export class PaymentProviderUnavailableError extends DomainError {
  constructor(message: string) {
    super('UNAVAILABLE', message, undefined, 'PAYMENT_PROVIDER_UNAVAILABLE');
    this.name = 'PaymentProviderUnavailableError';
  }
}

/** The provider refused a request (e.g. an invalid field): answered 502, nothing was charged. */
export class PaymentProviderRefusedError extends DomainError {
  constructor(message: string) {
    super('UNAVAILABLE', message, undefined, 'PAYMENT_PROVIDER_REFUSED');
    this.name = 'PaymentProviderRefusedError';
  }

  override get statusCode(): number {
    return 502;
  }
}

/** ETB amount as Chapa takes it: a string with two decimals (the shared santim conversion). */
export const santimToAmountString = toBirrText;

/** Chapa answers amounts as numbers or strings ("100", "100.00", 100.5); invalid -> undefined. */
export function amountToSantim(value: unknown): number | undefined {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : NaN;
  return Number.isFinite(n) && n >= 0 ? toSantim(n) : undefined;
}
