import { PHOTO_NAME } from '../photo-variants';

/** An uploaded format recognised from the file's first bytes (docs/decisions/0093-photo-variants.md). */
export type ImageKind = { ext: 'png' | 'jpg' | 'gif' | 'webp'; contentType: string };

/**
 * Where uploaded images live: MongoDB GridFS by default, local disk with IMAGE_STORAGE=disk; an
 * S3-compatible store could implement the same two methods.
 */
export abstract class ImageStorage {
  /**
   * Stores the bytes under `name` and answers the URL that serves them. Names are content hashes,
   * so a name already stored holds the same bytes and is kept as it is.
   */
  abstract put(name: string, buffer: Buffer, contentType: string): Promise<string>;
  /** The stored bytes of a file name this storage handed out, or undefined. */
  abstract read(name: string): Promise<Buffer | undefined>;
}

const SIGNATURES: { kind: ImageKind; at: number; bytes: number[] }[] = [
  {
    kind: { ext: 'png', contentType: 'image/png' },
    at: 0,
    bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  },
  { kind: { ext: 'jpg', contentType: 'image/jpeg' }, at: 0, bytes: [0xff, 0xd8, 0xff] },
  // GIF87a / GIF89a: the specification's third type; its first frame becomes the photo
  { kind: { ext: 'gif', contentType: 'image/gif' }, at: 0, bytes: [0x47, 0x49, 0x46, 0x38] },
  // RIFF....WEBP
  { kind: { ext: 'webp', contentType: 'image/webp' }, at: 8, bytes: [0x57, 0x45, 0x42, 0x50] },
];

/** PNG, JPEG, GIF or WebP judged by the magic bytes, never by the file name or the declared type. */
export function detectImage(buffer: Buffer): ImageKind | undefined {
  for (const { kind, at, bytes } of SIGNATURES) {
    if (at === 8 && !(buffer.length >= 12 && buffer.toString('latin1', 0, 4) === 'RIFF')) continue;
    if (buffer.length >= at + bytes.length && bytes.every((b, i) => buffer[at + i] === b)) return kind;
  }
  return undefined;
}

export const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
};

/** Names of uploads stored before photo variants: a random UUID and the detected extension. */
const LEGACY_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(png|jpg|gif)$/;

/** Names this API hands out (photo copies, or older uploads); anything else is unknown. */
export function isStoredName(name: string): boolean {
  return PHOTO_NAME.test(name) || LEGACY_NAME.test(name);
}

/** The content type of a stored name, by its extension. */
export function contentTypeOf(name: string): string {
  return CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
}
