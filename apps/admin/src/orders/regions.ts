import * as shared from '@shop/shared';

type Region = string | Record<string, unknown>;

/**
 * The region's name in the chosen language. Orders keep the canonical English name of an entry of
 * libs/shared's ETHIOPIAN_REGIONS (which also carries the Amharic name); without that list, or for
 * an unknown region, the stored text shows as it is.
 */
export function regionName(state: string, lang: 'en' | 'am'): string {
  if (lang !== 'am') return state;
  const regions = (shared as unknown as { ETHIOPIAN_REGIONS?: readonly Region[] }).ETHIOPIAN_REGIONS;
  if (!Array.isArray(regions)) return state;
  const entry = regions.find(
    (r) => typeof r === 'object' && r && Object.values(r).some((v) => v === state),
  ) as Record<string, unknown> | undefined;
  const amharic =
    entry && Object.values(entry).find((v) => typeof v === 'string' && /[\u1200-\u137F]/.test(v));
  return typeof amharic === 'string' ? amharic : state;
}
