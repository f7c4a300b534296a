import { Transform, type TransformCallback } from 'node:stream';

/**
 * Drops NUL bytes from the HTML React streams out (docs/decisions/0097-no-nul-bytes-in-pages.md).
 *
 * React 18.3's `renderToPipeableStream` copies text into 2,048-byte views; when a character of three
 * UTF-8 bytes (every Ethiopic letter) does not fit in the last one or two bytes of a view, it sends the
 * whole view anyway, unfilled bytes included, so a NUL lands between two letters and the browser shows
 * '�' ('ኖ�ቬምበር'). A page's HTML never has a NUL of its own (the HTML parser refuses them) and 0x00
 * never occurs inside a multi-byte UTF-8 sequence, so removing every 0x00 byte gives exactly the page
 * React meant to send.
 */
export function withoutNulBytes(): Transform {
  // React writes a page in views of 2,048 bytes, and each went through the compressor as a chunk of its own
  // (a job of zlib's thread pool each: most of the compression's cost on a personal page). They are sent
  // on in pieces of at least PIECE bytes, the rest at the end.
  let held: Buffer[] = [];
  let heldBytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      const clean = dropNul(chunk);
      held.push(clean);
      heldBytes += clean.length;
      if (heldBytes < PIECE) return done();
      const piece = Buffer.concat(held, heldBytes);
      held = [];
      heldBytes = 0;
      done(null, piece);
    },
    flush(done: TransformCallback) {
      done(null, heldBytes ? Buffer.concat(held, heldBytes) : undefined);
    },
  });
}

/** The bytes of the page sent on at once (a whole page of the shop is 25–95 KB). */
const PIECE = 64 * 1024;

/** `bytes` without its 0x00 bytes (the same buffer when it has none: the usual case, one memchr). */
export function dropNul(bytes: Buffer): Buffer {
  let at = bytes.indexOf(0);
  if (at < 0) return bytes;
  const out = Buffer.allocUnsafe(bytes.length);
  let length = 0;
  let from = 0;
  while (at >= 0) {
    length += bytes.copy(out, length, from, at);
    from = at + 1;
    at = bytes.indexOf(0, from);
  }
  length += bytes.copy(out, length, from);
  return out.subarray(0, length);
}
