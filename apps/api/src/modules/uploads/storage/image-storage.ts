/** An image format recognised from the file's first bytes. */
export type ImageKind = { ext: 'png' | 'jpg' | 'gif'; contentType: string };

/**
 * Where uploaded images live. The default keeps them on local disk and the API serves them;
 * an S3-compatible store can implement the same two methods (returning its own public URLs).
 */
export abstract class ImageStorage {
  /** Stores the bytes under a new random name and answers the URL that serves them. */
  abstract save(buffer: Buffer, ext: ImageKind['ext']): Promise<string>;
  /** The stored bytes of a file name this storage handed out, or undefined. */
  abstract read(name: string): Promise<Buffer | undefined>;
}

const SIGNATURES: { kind: ImageKind; bytes: number[][] }[] = [
  {
    kind: { ext: 'png', contentType: 'image/png' },
    bytes: [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  },
  { kind: { ext: 'jpg', contentType: 'image/jpeg' }, bytes: [[0xff, 0xd8, 0xff]] },
  {
    kind: { ext: 'gif', contentType: 'image/gif' },
    bytes: [
      [0x47, 0x49, 0x46, 0x38, 0x37, 0x61],
      [0x47, 0x49, 0x46, 0x38, 0x39, 0x61],
    ],
  },
];

/** PNG, JPEG or GIF judged by the magic bytes, never by the file name or the declared type. */
export function detectImage(buffer: Buffer): ImageKind | undefined {
  for (const { kind, bytes } of SIGNATURES) {
    if (bytes.some((sig) => buffer.length >= sig.length && sig.every((b, i) => buffer[i] === b))) return kind;
  }
  return undefined;
}

export const CONTENT_TYPES: Record<ImageKind['ext'], string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
};

/** Names this API hands out: a random UUID and the detected extension. Anything else is unknown. */
export const STORED_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(png|jpg|gif)$/;
