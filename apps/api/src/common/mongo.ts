import { type ClientSession, type Connection, Types } from 'mongoose';
import { isDatabaseUnavailableError } from '../database/unavailable';
import { ConflictError, NotFoundError, type ErrorCode } from './errors/domain-error';

const DUPLICATE_KEY = 11000;

export function isDuplicateKeyError(error: unknown): boolean {
  return (error as { code?: number } | undefined)?.code === DUPLICATE_KEY;
}

/** Runs a write whose unique index may refuse it, answering 409 with the caller's message. */
export async function conflictOnDuplicate<T>(
  write: Promise<T>,
  message: string,
  code?: ErrorCode,
): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isDuplicateKeyError(error)) throw new ConflictError(message, code);
    throw error;
  }
}

/** How long the transaction helper keeps retrying (docs/decisions/0070-bounded-transaction-retries.md). */
export const TRANSACTION_RETRY = {
  /** Attempts in all when the connection to the database fails inside the transaction (then 503). */
  unavailableAttempts: 3,
  /** No retry of a failed connection begins later than this after the first attempt began. */
  unavailableWindowMs: 3000,
  /** Write conflicts with other transactions are retried until this long after the first attempt (then 409). */
  conflictWindowMs: 30_000,
  /** How long a failed attempt waits for its abort before the next attempt goes on without it. */
  abortWaitMs: 1000,
};

const TRANSIENT = 'TransientTransactionError';
const UNKNOWN_COMMIT_RESULT = 'UnknownTransactionCommitResult';
const MAX_TIME_MS_EXPIRED = 50;

function hasLabel(error: unknown, label: string): boolean {
  const e = error as { hasErrorLabel?: (l: string) => boolean; errorLabels?: unknown } | undefined;
  if (typeof e?.hasErrorLabel === 'function') return e.hasErrorLabel(label);
  return Array.isArray(e?.errorLabels) && e.errorLabels.includes(label);
}

/** `error` as seen by the retry rule: a commit of unknown outcome is retried within the same bounds. */
function withLabel(error: unknown, label: string): unknown {
  return hasLabel(error, label)
    ? error
    : { name: (error as Error)?.name, cause: error, errorLabels: [label] };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` in one transaction, as the driver's `withTransaction` does (the whole work again after
 * an error labelled TransientTransactionError, the commit again after UnknownTransactionCommitResult),
 * with bounds short enough for a customer who waits for the answer (the driver's are 120 s):
 *   - a failed connection (the label on a network error) is tried at most 3 times within 3 s; then
 *     the network error goes up, answered 503 DATABASE_UNAVAILABLE (the client retries, with its
 *     Idempotency-Key). A database that cannot be selected at all fails at once, unlabelled, also 503;
 *   - a write conflict with another transaction (a buyer of the same product, or one a dead process
 *     left until the engine ends it) is retried after a small jittered pause, so that parallel buyers
 *     spread out, for up to 30 s; then a 409 SHOP_BUSY with the caller's message, never a 500.
 * Each attempt has its own session: a failed attempt's abort is awaited at most a second (it may
 * wait for a server that is gone) and finishes in the background.
 */
export async function inTransaction<T>(
  connection: Connection,
  work: (session: ClientSession) => Promise<T>,
  busyMessage: string,
): Promise<T> {
  const started = Date.now();
  let unavailableAttempts = 0;
  /** Whether `error` (which ended an attempt) lets the work start again. */
  const mayRetry = (error: unknown): boolean => {
    if (!hasLabel(error, TRANSIENT)) return false;
    const elapsed = Date.now() - started;
    if (isDatabaseUnavailableError(error)) {
      unavailableAttempts += 1;
      return (
        unavailableAttempts < TRANSACTION_RETRY.unavailableAttempts &&
        elapsed < TRANSACTION_RETRY.unavailableWindowMs
      );
    }
    return elapsed < TRANSACTION_RETRY.conflictWindowMs;
  };
  const giveUp = (error: unknown): never => {
    if (hasLabel(error, TRANSIENT) && !isDatabaseUnavailableError(error))
      throw new ConflictError(busyMessage, 'SHOP_BUSY');
    throw error;
  };

  for (let attempt = 1; ; attempt++) {
    if (attempt > 1) {
      const pause = unavailableAttempts
        ? 100 * unavailableAttempts
        : Math.random() * Math.min(50, 2 * attempt);
      await sleep(pause);
    }
    const session = await connection.startSession();
    try {
      session.startTransaction();
      let result: T;
      try {
        result = await work(session);
      } catch (error) {
        if (mayRetry(error)) continue;
        return giveUp(error);
      }
      for (;;) {
        try {
          await session.commitTransaction();
          return result;
        } catch (error) {
          // the commit's outcome is unknown (its connection failed): the same commit again, as the driver does
          const unknownOutcome =
            hasLabel(error, UNKNOWN_COMMIT_RESULT) &&
            (error as { code?: number }).code !== MAX_TIME_MS_EXPIRED;
          if (mayRetry(unknownOutcome ? withLabel(error, TRANSIENT) : error)) {
            if (unknownOutcome) continue;
            break;
          }
          return giveUp(error);
        }
      }
    } finally {
      // a commit, failed or not, leaves nothing to abort; a failed work leaves its transaction open
      const ending = (async () => {
        if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
        await session.endSession().catch(() => undefined);
      })();
      await Promise.race([ending, sleep(TRANSACTION_RETRY.abortWaitMs)]);
    }
  }
}

/** Parses a route id; a malformed id is answered like an unknown one, never as a server error. */
export function parseObjectId(id: string, notFoundMessage: string, code?: ErrorCode): Types.ObjectId {
  if (typeof id !== 'string' || !/^[a-f0-9]{24}$/i.test(id)) throw new NotFoundError(notFoundMessage, code);
  return new Types.ObjectId(id);
}

/** Escapes user text so that it is matched literally, never interpreted as a regular expression. */
export function escapeRegex(text: string): string {
  return (
    text
      .replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')
      // NUL cannot travel in a BSON regular expression: as an escape both JavaScript and PCRE read
      // eslint-disable-next-line no-control-regex -- NUL is exactly what is looked for
      .replace(/\u0000/g, '\\x00')
      // a lone surrogate has no UTF-8 form (BSON would store U+FFFD): say so explicitly
      .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
  );
}
