import { useShop } from '../shop-context';
import { photoSources } from './photo-sources';

/**
 * `fetchpriority="high"` for the page's main image. React 18 does not know the camel-case prop (it would
 * warn), but passes the lower-case attribute through as it is.
 */
export const HIGH_FETCH_PRIORITY = {
  fetchpriority: 'high',
} as unknown as React.ImgHTMLAttributes<HTMLImageElement>;

/** `sizes` of the places a photo is shown, for phones of 360-430 px first, then wider screens. */
export const IMAGE_SIZES = {
  /** two cards a row up to 600 px, then as many 230 px+ columns as fit the 1200 px page */
  card: '(max-width: 600px) 50vw, (max-width: 1200px) 33vw, 300px',
  /** the whole width on a phone, half the 1200 px page beside the summary */
  detail: '(max-width: 760px) 100vw, 600px',
  thumb: '72px',
  line: '80px',
  hero: '(max-width: 760px) 100vw, 640px',
} as const;

/** The widest copy Save-Data lets through for each place: one device pixel per CSS pixel. */
const SAVE_DATA_WIDTH: Record<keyof typeof IMAGE_SIZES, number> = {
  card: 320,
  detail: 640,
  thumb: 320,
  line: 320,
  hero: 640,
};

export interface ShopImageProps {
  src: string;
  alt: string;
  /** the box the image is laid out in (CSS may scale it), so that nothing moves when it arrives */
  width: number;
  height: number;
  place: keyof typeof IMAGE_SIZES;
  /** the page's largest image at first paint: fetched first and never lazily */
  priority?: boolean;
  /** below the fold: fetched when it comes near the screen */
  lazy?: boolean;
  className?: string;
}

/**
 * Every product image of the shop: an uploaded photo as `<picture>` with AVIF and WebP `srcset`s,
 * `sizes` for its place and its dominant colour behind it while it loads; any other image (the seed's
 * SVG drawings) as a plain `<img>`. With `Save-Data: on` only the small copies are offered.
 */
export function ShopImage({ src, alt, width, height, place, priority, lazy, className }: ShopImageProps) {
  const { saveData } = useShop();
  const loading = priority ? HIGH_FETCH_PRIORITY : lazy ? { loading: 'lazy' as const } : {};
  const photo = photoSources(src, saveData ? SAVE_DATA_WIDTH[place] : undefined);
  if (!photo)
    return <img className={className} src={src} alt={alt} width={width} height={height} {...loading} />;
  const sizes = IMAGE_SIZES[place];
  return (
    <picture>
      <source type="image/avif" srcSet={photo.avif} sizes={sizes} />
      <source type="image/webp" srcSet={photo.webp} sizes={sizes} />
      <img
        className={className}
        src={photo.src}
        alt={alt}
        width={width}
        height={height}
        decoding="async"
        style={{ backgroundColor: photo.placeholder }}
        {...loading}
      />
    </picture>
  );
}
