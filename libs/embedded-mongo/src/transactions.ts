import type { Document } from 'bson';
import { noSuchTransaction, writeConflict } from './errors';
import { Collection, valueKey } from './collection';
import type { JournalRecord, Storage } from './storage';

/** A multi-document transaction: its writes stay private until commit (snapshot per document, first writer wins). */
export interface Transaction {
  sessionKey: string;
  txnNumber: number;
  /** ns -> _id key -> the document as this transaction sees it (null = deleted). */
  writes: Map<string, Map<string, Document | null>>;
  /** ns|_id key -> the committed version this transaction started from. */
  baseVersions: Map<string, number>;
  collections: Map<string, Collection>;
  /** Epoch ms after which the engine aborts it (its start plus the lifetime limit then in force). */
  expiresAt: number;
}

/** mongod's default `transactionLifetimeLimitSeconds`. */
export const DEFAULT_TRANSACTION_LIFETIME_LIMIT_SECONDS = 60;

/**
 * Sessions and transactions: which transaction a command belongs to, document locks (a second
 * writer of a document gets WriteConflict), and commit with a conflict check against the versions
 * each written document had when the transaction first wrote it.
 *
 * As on mongod, a transaction lives at most `lifetimeLimitSeconds` (`transactionLifetimeLimitSeconds`)
 * from its start: past that it is aborted (by `expire`, run periodically, or at once when a command
 * of its own or a writer of one of its documents meets it), its locks released, and its next command
 * answers NoSuchTransaction (251, `TransientTransactionError`). Ending or killing a session aborts
 * its open transaction too.
 */
export class Transactions {
  private readonly transactions = new Map<string, Transaction>();
  private readonly committed = new Map<string, number>();
  /** ns|_id key -> session key of the transaction holding an uncommitted write. */
  private readonly locks = new Map<string, string>();
  /** Applies to transactions started from now on (mongod fixes the expiry at the start too). */
  lifetimeLimitSeconds = DEFAULT_TRANSACTION_LIFETIME_LIMIT_SECONDS;

  constructor(private readonly storage: Storage) {}

  /** The transaction a command belongs to (starting one on startTransaction), or undefined outside one. */
  forCommand(command: Document, name: string): Transaction | undefined {
    if (command.autocommit !== false || !command.lsid) return undefined;
    const sessionKey = valueKey(command.lsid.id);
    const txnNumber = Number(command.txnNumber);
    if (command.startTransaction) {
      const existing = this.transactions.get(sessionKey);
      if (existing) this.abort(existing);
      const txn: Transaction = {
        sessionKey,
        txnNumber,
        writes: new Map(),
        baseVersions: new Map(),
        collections: new Map(),
        expiresAt: Date.now() + this.lifetimeLimitSeconds * 1000,
      };
      this.transactions.set(sessionKey, txn);
      return txn;
    }
    const txn = this.transactions.get(sessionKey);
    if (txn && this.expired(txn)) this.abort(txn);
    else if (txn && txn.txnNumber === txnNumber) return txn;
    if (
      (name === 'commitTransaction' || name === 'abortTransaction') &&
      this.committed.get(sessionKey) === txnNumber
    ) {
      return undefined;
    }
    throw noSuchTransaction(txnNumber);
  }

  /** The number of open transactions (for tests and diagnostics). */
  get open(): number {
    return this.transactions.size;
  }

  private expired(txn: Transaction, now = Date.now()): boolean {
    return now >= txn.expiresAt;
  }

  /** Aborts every transaction past its lifetime limit (mongod's periodic job); answers how many. */
  expire(now = Date.now()): number {
    let aborted = 0;
    for (const txn of [...this.transactions.values()]) {
      if (this.expired(txn, now)) {
        this.abort(txn);
        aborted++;
      }
    }
    return aborted;
  }

  /**
   * `endSessions` / `killSessions`: aborts the open transaction of each session named by its lsid
   * (`{ id }`); `forget` (endSessions) also drops what the session remembers of its last commit.
   */
  endSessions(lsids: unknown, forget: boolean): void {
    if (!Array.isArray(lsids)) return;
    for (const lsid of lsids as Document[]) {
      if (!lsid || lsid.id === undefined) continue;
      const sessionKey = valueKey(lsid.id);
      const txn = this.transactions.get(sessionKey);
      if (txn) this.abort(txn);
      if (forget) this.committed.delete(sessionKey);
    }
  }

  /** `killAllSessions`: without users or roles every session is anyone's, so every transaction ends. */
  killAll(): void {
    for (const txn of [...this.transactions.values()]) this.abort(txn);
  }

  abort(txn: Transaction): void {
    for (const [key, owner] of this.locks) if (owner === txn.sessionKey) this.locks.delete(key);
    this.transactions.delete(txn.sessionKey);
  }

  /** Checks for conflicts and unique keys, then applies and journals every write as one batch. */
  commit(txn: Transaction): void {
    try {
      for (const [lockKey, version] of txn.baseVersions) {
        const sep = lockKey.indexOf('|');
        const coll = txn.collections.get(lockKey.slice(0, sep));
        if (coll && (coll.versions.get(lockKey.slice(sep + 1)) ?? 0) !== version) throw writeConflict();
      }
      for (const [ns, writes] of txn.writes) {
        const coll = txn.collections.get(ns)!;
        for (const [idKey, doc] of writes) if (doc) coll.checkUnique(doc, idKey, writes);
      }
    } catch (error) {
      this.abort(txn);
      throw error;
    }
    const ops: JournalRecord[] = [];
    for (const [ns, writes] of txn.writes) {
      const coll = txn.collections.get(ns)!;
      if (!this.storage.collection(coll.db, coll.name)) {
        if (!this.storage.dbs.has(coll.db)) this.storage.dbs.set(coll.db, new Map());
        this.storage.dbs.get(coll.db)!.set(coll.name, coll);
        ops.push({ t: 'create', d: coll.db, c: coll.name });
      }
      for (const [idKey, doc] of writes) {
        if (doc) {
          coll.put(idKey, doc);
          ops.push({ t: 'put', d: coll.db, c: coll.name, doc });
        } else {
          const id = coll.docs.get(idKey)?._id;
          coll.remove(idKey);
          if (id !== undefined) ops.push({ t: 'del', d: coll.db, c: coll.name, id });
        }
      }
    }
    if (ops.length) this.storage.append({ t: 'batch', ops });
    this.committed.set(txn.sessionKey, txn.txnNumber);
    this.abort(txn);
  }

  /** Records a write inside a transaction, after the lock and unique-key checks. */
  stage(coll: Collection, idKey: string, doc: Document | null, txn: Transaction): void {
    const lockKey = `${coll.ns}|${idKey}`;
    const owner = this.locks.get(lockKey);
    if (owner && owner !== txn.sessionKey) {
      const holder = this.transactions.get(owner);
      if (holder && !this.expired(holder)) throw writeConflict();
      if (holder) this.abort(holder);
    }
    if (doc) {
      for (const index of coll.uniqueIndexes()) {
        const key = Collection.uniqueKey(index, doc);
        if (key === undefined) continue;
        // the committed holder of the key (through the unique map), as this transaction sees it, then its own writes
        const overlay = txn.writes.get(coll.ns);
        const owner = coll.uniqueOwner(index.name, key);
        const holder =
          owner === undefined || owner === idKey
            ? undefined
            : overlay?.has(owner)
              ? overlay.get(owner)
              : coll.docs.get(owner);
        if (holder && Collection.uniqueKey(index, holder) === key)
          throw Collection.duplicateError(coll.ns, index, doc);
        for (const [otherKey, other] of overlay ?? []) {
          if (other && otherKey !== idKey && Collection.uniqueKey(index, other) === key) {
            throw Collection.duplicateError(coll.ns, index, doc);
          }
        }
      }
    }
    this.locks.set(lockKey, txn.sessionKey);
    if (!txn.baseVersions.has(lockKey)) txn.baseVersions.set(lockKey, coll.versions.get(idKey) ?? 0);
    txn.collections.set(coll.ns, coll);
    let overlay = txn.writes.get(coll.ns);
    if (!overlay) txn.writes.set(coll.ns, (overlay = new Map()));
    overlay.set(idKey, doc);
  }
}
