import { createHash } from 'node:crypto';
import sharp from 'sharp';

/**
 * Photos for phones (docs/decisions/0093-photo-variants.md): every uploaded photo is kept only as
 * WebP and AVIF copies at these widths (never wider than the photo), EXIF/GPS gone, under names
 * made of its content hash, the size of its largest copy and its dominant colour:
 *
 *   /api/uploads/<hash>-<width>x<height>-<rrggbb>.webp          the product's image URL (largest WebP)
 *   /api/uploads/<hash>-<width>x<height>-<rrggbb>-<w>.<avif|webp> one copy, w from variantWidths(width)
 *
 * so a client builds a srcset, width/height and a placeholder colour from the URL alone.
 */
export const VARIANT_WIDTHS = [320, 640, 1024, 1600] as const;
export const VARIANT_FORMATS = ['avif', 'webp'] as const;
export type VariantFormat = (typeof VARIANT_FORMATS)[number];
/** Largest photo decoded (a decompression bomb is refused before its pixels are made). */
export const MAX_INPUT_PIXELS = 50_000_000;

export const PHOTO_NAME = /^([0-9a-f]{24})-(\d{1,4})x(\d{1,5})-([0-9a-f]{6})(?:-(\d{1,4}))?\.(webp|avif)$/;

/** The widths a photo whose largest copy is `width` wide has: the standard ones below it, then itself. */
export function variantWidths(width: number): number[] {
  return [
    ...VARIANT_WIDTHS.filter((w) => w < width),
    Math.min(width, VARIANT_WIDTHS[VARIANT_WIDTHS.length - 1]),
  ];
}

export interface PhotoVariant {
  name: string;
  width: number;
  format: VariantFormat;
  contentType: string;
  bytes: Buffer;
}

export interface ConvertedPhoto {
  /** The product's image name: the largest WebP. */
  name: string;
  width: number;
  height: number;
  /** `#rrggbb`, shown while the photo loads. */
  placeholder: string;
  /** The largest WebP under `name`, then every copy. */
  files: PhotoVariant[];
}

const hex = (n: number) =>
  Math.max(0, Math.min(255, Math.round(n)))
    .toString(16)
    .padStart(2, '0');

/** One conversion at a time in this process: sharp works on libuv's pool, which fs and crypto share. */
let queue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work, work);
  queue = run.catch(() => undefined);
  return run;
}
// libvips' own threads per operation: this machine's two cores are shared with the requests
sharp.concurrency(1);

/**
 * Decodes, auto-rotates by the EXIF orientation, shrinks to at most 1600 px wide and encodes every
 * copy. Metadata is never written (sharp drops EXIF, XMP and GPS unless asked to keep them).
 * Throws for bytes that are not a decodable image.
 */
export function convertPhoto(input: Buffer): Promise<ConvertedPhoto> {
  return oneAtATime(async () => {
    const largest = VARIANT_WIDTHS[VARIANT_WIDTHS.length - 1];
    const { data, info } = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: largest, withoutEnlargement: true })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    const raw = { raw: { width: info.width, height: info.height, channels: info.channels } } as const;
    const { dominant } = await sharp(data, raw).stats();
    const colour = `${hex(dominant.r)}${hex(dominant.g)}${hex(dominant.b)}`;
    const hash = createHash('sha256').update(input).digest('hex').slice(0, 24);
    const stem = `${hash}-${info.width}x${info.height}-${colour}`;
    const files: PhotoVariant[] = [];
    for (const width of variantWidths(info.width)) {
      for (const format of VARIANT_FORMATS) {
        const pipeline = sharp(data, raw).resize({ width, withoutEnlargement: true });
        const bytes =
          format === 'avif'
            ? await pipeline.avif({ quality: 50, effort: 2 }).toBuffer()
            : await pipeline.webp({ quality: 72, effort: 3 }).toBuffer();
        files.push({
          name: `${stem}-${width}.${format}`,
          width,
          format,
          contentType: `image/${format}`,
          bytes,
        });
      }
    }
    const top = files.find((f) => f.format === 'webp' && f.width === info.width)!;
    const name = `${stem}.webp`;
    return {
      name,
      width: info.width,
      height: info.height,
      placeholder: `#${colour}`,
      files: [{ ...top, name }, ...files],
    };
  });
}
