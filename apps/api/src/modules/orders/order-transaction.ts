import type { ClientSession, Connection } from 'mongoose';
import type { Changes } from '../../common/changes';
import { inTransaction } from '../../common/mongo';

export const BUSY_MESSAGE = 'The shop is busy with the same products; please try again';

/** What an order write touched, filled in by the write as it learns it (orders, and products whose stock moved). */
export interface Touched {
  orders: Set<string>;
  stock: Set<string>;
}

/** Says what a write touched: the orders changed, and the products whose stock moved. */
export function publishTouched(changes: Changes, touched: Touched): void {
  if (touched.stock.size) changes.publish({ kind: 'stock', ids: [...touched.stock] });
  if (touched.orders.size) changes.publish({ kind: 'order', ids: [...touched.orders] });
}

/**
 * Runs `work` in one MongoDB transaction (Mongoose passes the session to nothing by itself: every
 * operation inside takes `{ session }`), through the common helper (common/mongo.ts `inTransaction`):
 * a write conflict with another transaction is retried from the start, after a short random pause so
 * that many buyers of one product do not retry in lockstep; a retry re-reads everything, so it ends in
 * a commit or in the domain error (say a 409 for the stock another buyer just took). Conflicts that
 * outlast 30 s are a 409 SHOP_BUSY, never a 500. A connection to the database that fails inside the
 * transaction is tried at most 3 times within 3 s, then answered 503 DATABASE_UNAVAILABLE: the client
 * retries with its Idempotency-Key (docs/decisions/0070-bounded-transaction-retries.md). Afterwards,
 * committed or not, what the work noted in `touched` is published (a failed transaction may have
 * changed nothing, but saying so costs a cache entry, never a stale answer).
 */
export async function orderTransaction<T>(
  connection: Connection,
  changes: Changes,
  work: (session: ClientSession, touched: Touched) => Promise<T>,
): Promise<T> {
  const touched: Touched = { orders: new Set(), stock: new Set() };
  try {
    return await inTransaction(connection, (session) => work(session, touched), BUSY_MESSAGE);
  } finally {
    publishTouched(changes, touched);
  }
}
