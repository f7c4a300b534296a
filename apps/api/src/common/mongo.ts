import { Types } from 'mongoose';
import { NotFoundError } from './errors/domain-error';

/** Parses a route id; a malformed id is answered like an unknown one, never as a server error. */
export function parseObjectId(id: string, notFoundMessage: string): Types.ObjectId {
  if (typeof id !== 'string' || !/^[a-f0-9]{24}$/i.test(id)) throw new NotFoundError(notFoundMessage);
  return new Types.ObjectId(id);
}

/** Escapes user text so that it is matched literally, never interpreted as a regular expression. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
