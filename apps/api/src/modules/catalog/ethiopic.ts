/**
 * Ethiopic (Ge'ez script, as Amharic writes it) to Latin letters, the way Ethiopians spell words in
 * Latin letters as they hear them (ቡና → buna, ሻምፑ → shampu, ዕጣን → etan / itan): the search indexes
 * Amharic names through it so that a Latin query finds them (docs/decisions/0084-search-index.md).
 *
 * Each syllable (fidel) is a consonant and a vowel by its order (its place in its row of the Unicode
 * block): 1st ä (written e, or a), 2nd u, 3rd i, 4th a, 5th e, 6th none (the consonant alone: ም → m;
 * inside a word also with a short i: ሽቶ → shto, shito),
 * 7th o, 8th wa (ሏ → lwa). The rows of the vowel carriers (አ, ዐ) give the vowel alone; their 6th
 * order is heard as a short e or i (ዕ → e / i). The labialised rows (ቈ, ኰ, ጐ...) have their own
 * five forms. Gemination is not written in the script, so none is produced (ቡና → buna, not bunna).
 */

/** The consonant of each row of 8 syllables, by the row's first code point (U+1200 ...). */
const ROWS: Readonly<Record<number, string>> = {
  0x1200: 'h', 0x1208: 'l', 0x1210: 'h', 0x1218: 'm', 0x1220: 's', 0x1228: 'r', 0x1230: 's',
  0x1238: 'sh', 0x1240: 'q', 0x1250: 'q', 0x1260: 'b', 0x1268: 'v', 0x1270: 't', 0x1278: 'ch',
  0x1280: 'h', 0x1290: 'n', 0x1298: 'ny', 0x12a0: '', 0x12a8: 'k', 0x12b8: 'h', 0x12c8: 'w',
  0x12d0: '', 0x12d8: 'z', 0x12e0: 'zh', 0x12e8: 'y', 0x12f0: 'd', 0x12f8: 'd', 0x1300: 'j',
  0x1308: 'g', 0x1318: 'ng', 0x1320: 't', 0x1328: 'ch', 0x1330: 'p', 0x1338: 'ts', 0x1340: 'ts',
  0x1348: 'f', 0x1350: 'p',
}; // prettier-ignore

/** The labialised rows (ቈ ኰ ጐ ...: forms at offsets 0, 2, 3, 4, 5 of their row) and their consonant. */
const LABIALISED: Readonly<Record<number, string>> = {
  0x1248: 'q', 0x1258: 'q', 0x1288: 'h', 0x12b0: 'k', 0x12c0: 'k', 0x1310: 'g',
}; // prettier-ignore
const LABIALISED_VOWELS = ['we', '', 'wi', 'wa', 'we', 'w', '', ''];

/** The vowel of each order (index 0 = 1st order), as usually written; the 6th has none. */
const VOWELS = ['e', 'u', 'i', 'a', 'e', '', 'o', 'wa'];
/** The other spelling of the 1st order (ä heard as a) and of a carrier's 6th order (ə heard as i). */
const FIRST_ORDER_OTHER = 'a';
const CARRIER_SIXTH = ['e', 'i'];
const SIXTH_ORDER_HEARD = 'i';

const ETHIOPIC = /\p{Script=Ethiopic}/u;

/** Whether `text` has a letter of the Ethiopic script. */
export function hasEthiopic(text: string): boolean {
  return ETHIOPIC.test(text);
}

/** The Latin spellings of one syllable (one or two), or undefined when it is no syllable (punctuation, digits). */
function syllable(code: number, last: boolean): readonly string[] | undefined {
  if (code < 0x1200 || code > 0x135a) return undefined;
  const offset = code & 7;
  const rowStart = code - offset;
  const labial = LABIALISED[rowStart];
  if (labial !== undefined) {
    const vowel = LABIALISED_VOWELS[offset];
    return vowel || offset === 5 ? [labial + vowel] : undefined;
  }
  const consonant = ROWS[rowStart];
  if (consonant === undefined) return undefined;
  if (consonant === '') {
    // the vowel carriers: አ/ዐ (1st order) and ኣ/ዓ (4th) are a; ዕ/እ (6th) a short e or i
    if (offset === 0 || offset === 3) return ['a'];
    if (offset === 5) return CARRIER_SIXTH;
    return [VOWELS[offset]];
  }
  if (offset === 0) return [consonant + VOWELS[0], consonant + FIRST_ORDER_OTHER];
  // the 6th order inside a word is often heard with a short i (ሽቶ → shto, shito); at its end, never
  if (offset === 5 && !last) return [consonant, consonant + SIXTH_ORDER_HEARD];
  return [consonant + VOWELS[offset]];
}

/** At most this many spellings of one word (each syllable with two spellings doubles them). */
const MAX_SPELLINGS = 4;

/**
 * The Latin spellings of an Ethiopic word, the usual one first: every syllable by its order, a
 * 1st-order syllable also with `a` and a carrier's 6th order also with `i` (ዕጣን → etan, itan), at
 * most MAX_SPELLINGS. Characters of other scripts are kept as they are (lower-cased).
 */
export function transliterate(word: string): string[] {
  let spellings = [''];
  const chars = [...word.toLowerCase()];
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i];
    const options =
      syllable(char.codePointAt(0) ?? 0, i === chars.length - 1) ?? (ETHIOPIC.test(char) ? [''] : [char]);
    const next: string[] = [];
    for (const option of options)
      for (const spelling of spellings) if (next.length < MAX_SPELLINGS) next.push(spelling + option);
    // the usual spelling (first option of every syllable) stays first
    spellings = [...new Set(next)];
  }
  return spellings.filter(Boolean);
}

/** The Latin spellings of every Ethiopic word of a text, joined by spaces (words of other scripts are left out). */
export function transliterateText(words: readonly string[]): string {
  const out: string[] = [];
  for (const word of words) if (hasEthiopic(word)) out.push(...transliterate(word));
  return out.join(' ');
}
