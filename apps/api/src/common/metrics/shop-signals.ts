import { Global, Injectable, Module } from '@nestjs/common';

/** How a payment's settlement ended: paid, or failed for one of the settlement's reasons. */
export type PaymentOutcome = 'success' | 'declined' | 'amount_mismatch' | 'currency_mismatch';

/**
 * What an observer of the shop may want to count, said by the domain at the moment it happened.
 * Every method is optional: a listener takes what it counts.
 */
export interface ShopSignalListener {
  /** An order was committed (its transaction ended in a commit), paid by `paymentMethod`. */
  orderPlaced?(paymentMethod: string): void;
  /** A payment was settled once (the conditional update that settles it won). */
  paymentSettled?(outcome: PaymentOutcome): void;
  /** The payment provider could not be asked about a payment (unreachable, or it answered an error). */
  paymentUnverified?(): void;
  /** A line of an order could not be reserved; `code` is the refusal's code (OUT_OF_STOCK, ...). */
  stockRefused?(code: string): void;
}

/**
 * The one channel from the domain to whatever observes it (the metrics of src/observability, see
 * docs/operations.md 'Metrics'). Domain services say what happened here and never import an
 * observer; with no listener a signal costs a loop over an empty array.
 */
@Injectable()
export class ShopSignals {
  private readonly listeners: ShopSignalListener[] = [];

  listen(listener: ShopSignalListener): () => void {
    this.listeners.push(listener);
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at >= 0) this.listeners.splice(at, 1);
    };
  }

  orderPlaced(paymentMethod: string): void {
    for (const listener of this.listeners) listener.orderPlaced?.(paymentMethod);
  }

  paymentSettled(outcome: PaymentOutcome): void {
    for (const listener of this.listeners) listener.paymentSettled?.(outcome);
  }

  paymentUnverified(): void {
    for (const listener of this.listeners) listener.paymentUnverified?.();
  }

  stockRefused(code: string): void {
    for (const listener of this.listeners) listener.stockRefused?.(code);
  }
}

@Global()
@Module({ providers: [ShopSignals], exports: [ShopSignals] })
export class ShopSignalsModule {}
