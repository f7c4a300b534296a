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

/** True for network, server-selection and closed-pool errors, and for Mongoose's buffering timeout. */
export function isDatabaseUnavailableError(error: unknown): boolean {
  for (
    let e = error, depth = 0;
    e && typeof e === 'object' && depth < 4;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { name, message } = e as { name?: string; message?: string };
    if (name && UNAVAILABLE_NAMES.has(name)) return true;
    if (name === 'MongooseError' && typeof message === 'string' && /buffering timed out/.test(message))
      return true;
  }
  return false;
}

/** The URI's own serverSelectionTimeoutMS wins (ops can tune it per deployment); otherwise our default. */
export function serverSelectionTimeoutFor(uri: string): number | undefined {
  return /[?&]serverSelectionTimeoutMS=/i.test(uri) ? undefined : DEFAULT_SERVER_SELECTION_TIMEOUT_MS;
}
