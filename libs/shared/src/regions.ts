/**
 * Ethiopia's regional states and chartered cities, the choices of a delivery address's region
 * (`shippingAddress.state`). Orders store the canonical English name; forms and the API also accept
 * the Amharic name or the code.
 */
export interface EthiopianRegion {
  code: string;
  en: string;
  am: string;
  kind: 'city' | 'region';
}

export const ETHIOPIAN_REGIONS: readonly EthiopianRegion[] = [
  { code: 'AA', en: 'Addis Ababa', am: 'አዲስ አበባ', kind: 'city' },
  { code: 'DD', en: 'Dire Dawa', am: 'ድሬ ዳዋ', kind: 'city' },
  { code: 'AF', en: 'Afar', am: 'አፋር', kind: 'region' },
  { code: 'AM', en: 'Amhara', am: 'አማራ', kind: 'region' },
  { code: 'BG', en: 'Benishangul-Gumuz', am: 'ቤኒሻንጉል ጉሙዝ', kind: 'region' },
  { code: 'CE', en: 'Central Ethiopia', am: 'ማዕከላዊ ኢትዮጵያ', kind: 'region' },
  { code: 'GA', en: 'Gambela', am: 'ጋምቤላ', kind: 'region' },
  { code: 'HA', en: 'Harari', am: 'ሐረሪ', kind: 'region' },
  { code: 'OR', en: 'Oromia', am: 'ኦሮሚያ', kind: 'region' },
  { code: 'SI', en: 'Sidama', am: 'ሲዳማ', kind: 'region' },
  { code: 'SO', en: 'Somali', am: 'ሶማሌ', kind: 'region' },
  { code: 'SE', en: 'South Ethiopia', am: 'ደቡብ ኢትዮጵያ', kind: 'region' },
  { code: 'SW', en: 'South West Ethiopia Peoples', am: 'ደቡብ ምዕራብ ኢትዮጵያ ሕዝቦች', kind: 'region' },
  { code: 'TI', en: 'Tigray', am: 'ትግራይ', kind: 'region' },
];

export const REGION_MESSAGE = 'state must be one of Ethiopia’s regions or chartered cities';

const squash = (value: string) =>
  value
    .normalize('NFC')
    .toLowerCase()
    .replace(/[\s\-’'.]+/g, '');

const BY_KEY = new Map<string, EthiopianRegion>();
for (const region of ETHIOPIAN_REGIONS) {
  for (const key of [region.code, region.en, region.am]) BY_KEY.set(squash(key), region);
}
// Spellings customers and older clients use.
for (const [alias, code] of [
  ['Addis Abeba', 'AA'],
  ['Finfinne', 'AA'],
  ['Benishangul Gumuz', 'BG'],
  ['Gambella', 'GA'],
  ['Harar', 'HA'],
  ['SNNPR', 'SW'],
  ['South West Ethiopia', 'SW'],
  ['South West Ethiopia Peoples’ Region', 'SW'],
] as const) {
  BY_KEY.set(squash(alias), ETHIOPIAN_REGIONS.find((r) => r.code === code) as EthiopianRegion);
}

/** The region an English name, Amharic name, code or known alias stands for; undefined otherwise. */
export function findEthiopianRegion(input: string | undefined | null): EthiopianRegion | undefined {
  if (typeof input !== 'string') return undefined;
  return BY_KEY.get(squash(input));
}

/** The region's name in a language (the stored English name when it is not a known region). */
export function regionName(stored: string, lang: string): string {
  const region = findEthiopianRegion(stored);
  if (!region) return stored;
  return lang === 'am' ? region.am : region.en;
}
