import { Types } from 'mongoose';
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
