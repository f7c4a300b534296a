import { BSON, type Document } from 'bson';

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_MSG = 2013;

const MSG_CHECKSUM_PRESENT = 1;
export const MSG_MORE_TO_COME = 2;

export interface Message {
  requestId: number;
  opCode: number;
  /** The command document, with OP_MSG document sequences folded in. */
  command: Document;
  /** OP_QUERY: the collection name `db.$cmd`; OP_MSG: undefined. */
  fullCollectionName?: string;
  flags: number;
}

const BSON_OPTS = { promoteLongs: true, promoteValues: true, promoteBuffers: false, useBigInt64: false };

export function parseMessage(buffer: Buffer): Message {
  const requestId = buffer.readInt32LE(4);
  const opCode = buffer.readInt32LE(12);
  if (opCode === OP_MSG) {
    const flags = buffer.readUInt32LE(16);
    const end = flags & MSG_CHECKSUM_PRESENT ? buffer.length - 4 : buffer.length;
    let offset = 20;
    let command: Document | undefined;
    const sequences: Record<string, Document[]> = {};
    while (offset < end) {
      const kind = buffer.readUInt8(offset);
      offset += 1;
      if (kind === 0) {
        const size = buffer.readInt32LE(offset);
        command = BSON.deserialize(buffer.subarray(offset, offset + size), BSON_OPTS);
        offset += size;
      } else if (kind === 1) {
        const size = buffer.readInt32LE(offset);
        const sectionEnd = offset + size;
        let cursor = offset + 4;
        const nul = buffer.indexOf(0, cursor);
        const identifier = buffer.toString('utf8', cursor, nul);
        cursor = nul + 1;
        const docs: Document[] = [];
        while (cursor < sectionEnd) {
          const docSize = buffer.readInt32LE(cursor);
          docs.push(BSON.deserialize(buffer.subarray(cursor, cursor + docSize), BSON_OPTS));
          cursor += docSize;
        }
        sequences[identifier] = docs;
        offset = sectionEnd;
      } else {
        throw new Error(`Unknown OP_MSG section kind ${kind}`);
      }
    }
    if (!command) throw new Error('OP_MSG without a body section');
    for (const [key, docs] of Object.entries(sequences)) command[key] = docs;
    return { requestId, opCode, command, flags };
  }
  if (opCode === OP_QUERY) {
    const flags = buffer.readInt32LE(16);
    const nul = buffer.indexOf(0, 20);
    const fullCollectionName = buffer.toString('utf8', 20, nul);
    let offset = nul + 1 + 8; // numberToSkip, numberToReturn
    const size = buffer.readInt32LE(offset);
    const command = BSON.deserialize(buffer.subarray(offset, offset + size), BSON_OPTS);
    offset += size;
    return { requestId, opCode, command, fullCollectionName, flags };
  }
  throw new Error(`Unsupported opCode ${opCode}`);
}

let nextResponseId = 1;

function header(length: number, responseTo: number, opCode: number): Buffer {
  const h = Buffer.alloc(16);
  h.writeInt32LE(length, 0);
  h.writeInt32LE(nextResponseId++ & 0x7fffffff, 4);
  h.writeInt32LE(responseTo, 8);
  h.writeInt32LE(opCode, 12);
  return h;
}

export function encodeMsgReply(responseTo: number, doc: Document): Buffer {
  const body = BSON.serialize(doc);
  const flags = Buffer.alloc(5); // flagBits (4) + section kind 0 (1)
  const length = 16 + flags.length + body.length;
  return Buffer.concat([header(length, responseTo, OP_MSG), flags, body]);
}

export function encodeOpReply(responseTo: number, doc: Document): Buffer {
  const body = BSON.serialize(doc);
  const fields = Buffer.alloc(20);
  fields.writeInt32LE(8, 0); // AwaitCapable
  // cursorID 0 (8 bytes), startingFrom 0
  fields.writeInt32LE(1, 16); // numberReturned
  const length = 16 + fields.length + body.length;
  return Buffer.concat([header(length, responseTo, OP_REPLY), fields, body]);
}
