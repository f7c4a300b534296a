/** Driver and Mongoose failures that mean "the database cannot be reached right now", not a bug. */
const UNAVAILABLE_NAMES = new Set([
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoTopologyClosedError',
  'MongoNotConnectedError',
  'MongoPoolClearedError',
]);

/** Server selection waits at most this long when the URI does not say otherwise (a client should not wait 30 s). */
export const DEFAULT_SERVER_SELECTION_TIMEOUT_MS = 5000;

export const DATABASE_UNAVAILABLE_MESSAGE = 'Service temporarily unavailable';

/**
 * True for network, server-selection and closed-pool errors, and for Mongoose's buffering timeout,
 * also when another error carries one: as its `cause`, or as the `errorResponse` of the driver's
 * MongoBulkWriteError (a bulkWrite that loses its connection throws a MongoBulkWriteError around the
 * network error, which is how the outbox's bulk upsert answered 500 where every other write answered 503).
 */
export function isDatabaseUnavailableError(error: unknown): boolean {
  const pending: unknown[] = [error];
  for (let seen = 0; pending.length && seen < 8; seen++) {
    const e = pending.shift();
    if (!e || typeof e !== 'object') continue;
    const { name, message, cause, errorResponse } = e as {
      name?: string;
      message?: string;
      cause?: unknown;
      errorResponse?: unknown;
    };
    if (name && UNAVAILABLE_NAMES.has(name)) return true;
    if (name === 'MongooseError' && typeof message === 'string' && /buffering timed out/.test(message))
      return true;
    pending.push(cause, errorResponse);
  }
  return false;
}

/** The URI's own serverSelectionTimeoutMS wins (ops can tune it per deployment); otherwise our default. */
export function serverSelectionTimeoutFor(uri: string): number | undefined {
  return /[?&]serverSelectionTimeoutMS=/i.test(uri) ? undefined : DEFAULT_SERVER_SELECTION_TIMEOUT_MS;
}
