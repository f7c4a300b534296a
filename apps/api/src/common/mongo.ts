import { type ClientSession, type Connection, Types } from 'mongoose';
import { ConflictError, NotFoundError, type ErrorCode } from './errors/domain-error';

const DUPLICATE_KEY = 11000;
const WRITE_CONFLICT = 112;

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

/**
 * Runs `work` in one transaction (the driver retries transient conflicts, with a small jittered pause
 * between attempts so that parallel buyers of one product spread out). A write conflict that outlasts
 * the retries is a 409 SHOP_BUSY with the caller's message, never a 500.
 */
export async function inTransaction<T>(
  connection: Connection,
  work: (session: ClientSession) => Promise<T>,
  busyMessage: string,
): Promise<T> {
  let attempt = 0;
  let result: T | undefined;
  try {
    await connection.transaction(async (session) => {
      attempt += 1;
      if (attempt > 1) await new Promise((r) => setTimeout(r, Math.random() * Math.min(50, 2 * attempt)));
      result = await work(session);
    });
  } catch (error) {
    if ((error as { code?: number } | undefined)?.code === WRITE_CONFLICT)
      throw new ConflictError(busyMessage, 'SHOP_BUSY');
    throw error;
  }
  return result as T;
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
