import { Global, Injectable, Module } from '@nestjs/common';

/**
 * What a domain write changed, as the domain says it. Domain services publish these and never call
 * a cache; every cache of the API (apps/api/src/cache) listens and decides what to forget
 * (the invalidation table of docs/decisions/0046-one-cache-layer.md).
 *
 * - `product`: a product's own fields (created, edited, withdrawn, deleted), `ids` the products;
 * - `stock`: stock moved (reserved, released, restocked), `ids` the products;
 * - `review`: a review written, moderated or removed (a product's rating may move), `ids` the products;
 * - `order`: an order placed or changed (dashboards, sales counts), `ids` the orders;
 * - `settings`: the shop's settings;
 * - `account`: a user's account (role, active, password, sign-out, deletion), `ids` the users.
 */
export type ChangeKind = 'product' | 'stock' | 'review' | 'order' | 'settings' | 'account';

export interface Change {
  kind: ChangeKind;
  /** The ids concerned (hex strings); absent when the change is not about particular records. */
  ids?: readonly string[];
}

export interface ChangeListener {
  /** A write of this change started: nothing read from now until `changed` may be kept. */
  begin?(change: Change): void;
  /** The write ended (committed or failed: a failed write may still have changed something). */
  changed(change: Change): void;
}

/** The one channel from domain writes to the caches beside the domain. */
@Injectable()
export class Changes {
  private readonly listeners: ChangeListener[] = [];

  listen(listener: ChangeListener): () => void {
    this.listeners.push(listener);
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at >= 0) this.listeners.splice(at, 1);
    };
  }

  /** Says a change that has already been written. */
  publish(change: Change): void {
    for (const listener of this.listeners) listener.changed(change);
  }

  /** Runs a write, saying its change before it starts and after it ends (whether it succeeded or not). */
  async around<T>(change: Change, write: () => Promise<T>): Promise<T> {
    for (const listener of this.listeners) listener.begin?.(change);
    try {
      return await write();
    } finally {
      this.publish(change);
    }
  }
}

@Global()
@Module({ providers: [Changes], exports: [Changes] })
export class ChangesModule {}
