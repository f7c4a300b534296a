/**
 * The copies of an uploaded photo, derived from its URL alone (docs/decisions/0093-photo-variants.md):
 * `/api/uploads/<hash>-<width>x<height>-<rrggbb>.webp` is the largest WebP (at most 1600 px wide);
 * `<stem>-<w>.avif` and `<stem>-<w>.webp` exist for w in 320, 640, 1024, 1600 below the photo's
 * width, and for its width. Any other URL (the seed's SVG drawings, an outside http URL) has none.
 */
const PHOTO_URL = /^(.*\/api\/uploads\/[0-9a-f]{24}-(\d{1,4})x(\d{1,5})-([0-9a-f]{6}))\.webp$/;
export const PHOTO_WIDTHS = [320, 640, 1024, 1600] as const;

export interface PhotoSources {
  avif: string;
  webp: string;
  /** For a browser that takes no source (none today): the smallest copy at least 640 wide, or the largest. */
  src: string;
  width: number;
  height: number;
  /** `#rrggbb`: shown while the photo loads. */
  placeholder: string;
}

/** The widths of the copies of a photo whose largest copy is `width` wide. */
export function photoWidths(width: number): number[] {
  const largest = PHOTO_WIDTHS[PHOTO_WIDTHS.length - 1];
  return [...PHOTO_WIDTHS.filter((w) => w < width), Math.min(width, largest)];
}

/**
 * The `srcset`s of a photo URL, or undefined when it is not one of the API's photos. `maxWidth`
 * (Save-Data) leaves out the copies wider than it (keeping the narrowest one in any case).
 */
export function photoSources(url: string, maxWidth?: number): PhotoSources | undefined {
  const match = PHOTO_URL.exec(url);
  if (!match) return undefined;
  const [, stem, w, h, colour] = match;
  const width = Number(w);
  const height = Number(h);
  if (!width || !height) return undefined;
  const all = photoWidths(width);
  const widths = maxWidth ? all.filter((x, i) => i === 0 || x <= maxWidth) : all;
  const set = (format: 'avif' | 'webp') => widths.map((x) => `${stem}-${x}.${format} ${x}w`).join(', ');
  const fallback = widths.find((x) => x >= 640) ?? widths[widths.length - 1];
  return {
    avif: set('avif'),
    webp: set('webp'),
    src: `${stem}-${fallback}.webp`,
    width,
    height,
    placeholder: `#${colour}`,
  };
}
