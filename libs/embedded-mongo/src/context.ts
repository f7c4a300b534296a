import type { Document } from 'bson';
import type { Collection } from './collection';
import type { Cursors } from './cursors';
import type { ExecStats, Overlay, QueryOptions } from './planner/query';
import type { Storage } from './storage';
import type { Transaction, Transactions } from './transactions';

export interface ServerIdentity {
  host: string;
  port: number;
  replSetName: string;
}

/**
 * What every command module gets from the engine: the storage, sessions and cursors, and the
 * committed state as a command's transaction (if any) sees it.
 */
export interface CommandContext {
  readonly storage: Storage;
  readonly txns: Transactions;
  readonly cursors: Cursors;
  readonly identity: ServerIdentity;
  /** The plan and counters of the last query run (for `explain`). */
  lastRun?: { stats: ExecStats; filter: Document | undefined };
  /** A collection as the transaction sees it; with `create`, made (in the transaction, or journaled). */
  collectionFor(
    db: string,
    name: string,
    txn: Transaction | undefined,
    create: boolean,
  ): Collection | undefined;
  /** Every document of a collection as the transaction sees it. */
  docsOf(coll: Collection | undefined, txn: Transaction | undefined): Document[];
  /** This transaction's writes on a collection, if any. */
  overlayOf(coll: Collection | undefined, txn: Transaction | undefined): Overlay | undefined;
  /** The documents matching `filter` in scan order, through the planner. */
  matching(
    coll: Collection | undefined,
    filter: Document | undefined,
    txn: Transaction | undefined,
    extra?: Partial<QueryOptions>,
  ): Document[];
  getDoc(coll: Collection, idKey: string, txn: Transaction | undefined): Document | undefined;
  /** Stores (or deletes, with null) one document: journaled, or staged in the transaction. */
  write(coll: Collection, idKey: string, doc: Document | null, txn: Transaction | undefined): void;
  /** Runs another command (views run their pipeline as an aggregate; explain runs its command). */
  dispatch(
    name: string,
    db: string,
    cmd: Document,
    txn: Transaction | undefined,
    connectionId: number,
  ): Document;
}
