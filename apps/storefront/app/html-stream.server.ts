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
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      done(null, dropNul(chunk));
    },
  });
}

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
