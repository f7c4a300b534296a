import { hasEthiopic, transliterate, transliterateText } from '../src/modules/catalog/ethiopic';
import { allowedEdits, toQuery } from '../src/modules/catalog/search-query';
import { editDistance, highlightRanges } from '../src/modules/catalog/suggestions.service';

describe('search: Ethiopic to Latin letters', () => {
  it('spells each syllable by its order: consonant and vowel, the 6th order without a vowel', () => {
    expect(transliterate('ቡና')).toEqual(['buna']);
    expect(transliterate('ሻምፑ')[0]).toBe('shampu');
    expect(transliterate('ሞሪንጋ')[0]).toBe('moringa');
    // the 6th order inside a word: the consonant alone, or heard with a short i; at the end, alone
    expect(transliterate('ሽቶ')).toEqual(['shto', 'shito']);
    expect(transliterate('ጤፍ')).toEqual(['tef']);
    expect(transliterate('ኮኮናት')).toEqual(['kokonat']);
  });

  it('gives a vowel carrier its vowel alone, ዕ/እ as e and also i', () => {
    expect(transliterate('ዕጣን')).toEqual(['etan', 'itan']);
    expect(transliterate('እሬት')).toEqual(['eret', 'iret']);
    expect(transliterate('አዲስ')).toEqual(['adis']);
    expect(transliterate('ዓይን')).toEqual(['ayn', 'ayin']);
  });

  it('writes the 1st order as e, also as a, at most four spellings, the usual one first', () => {
    expect(transliterate('ሴረም')).toEqual(['serem', 'seram']);
    expect(transliterate('ገበያ')[0]).toBe('gebeya');
    expect(transliterate('ገበያ')).toContain('gabeya');
    expect(transliterate('መለከተ').length).toBeLessThanOrEqual(4);
  });

  it('spells the 8th order and the labialised rows with w', () => {
    expect(transliterate('ሏ')).toEqual(['lwa']);
    expect(transliterate('ቋ')).toEqual(['qwa']);
    expect(transliterate('ጓደኛ')[0]).toBe('gwadenya');
  });

  it('keeps other characters, drops Ethiopic punctuation, and spells only Ethiopic words of a text', () => {
    expect(transliterate('ቡና2')).toEqual(['buna2']);
    expect(transliterate('፣')).toEqual([]);
    expect(hasEthiopic('Buna ቡና')).toBe(true);
    expect(hasEthiopic('Buna')).toBe(false);
    expect(transliterateText(['buna', 'ቡና', 'ዕጣን'])).toBe('buna etan itan');
  });
});

describe('search: typos and queries', () => {
  it('allows no typo below 4 letters, one for 4 to 7, two from 8', () => {
    expect([3, 4, 7, 8, 12].map((n) => allowedEdits('a'.repeat(n)))).toEqual([0, 1, 1, 2, 2]);
    expect(allowedEdits('ሻምፑ')).toBe(0);
  });

  it('counts a swap of two neighbouring letters as one edit', () => {
    expect(editDistance('morniga', 'moringa', 2)).toBe(1);
    expect(editDistance('serun', 'serum', 2)).toBe(1);
    expect(editDistance('coffee', 'toffee', 2)).toBe(1);
    expect(editDistance('abc', 'abcdef', 2)).toBe(3);
  });

  it('makes every word a must, the last one a prefix, and asks an Ethiopic word in Latin letters too', () => {
    expect(toQuery(' .* ')).toBeNull();
    const query = toQuery('የቡና ser') as {
      combineWith: string;
      queries: { queries: unknown[]; prefix?: boolean }[];
    };
    expect(query.combineWith).toBe('AND');
    expect(query.queries).toHaveLength(2);
    expect(query.queries[0]).toMatchObject({
      prefix: false,
      queries: ['የቡና', 'yebuna', 'yabuna', 'ቡና', 'buna'],
    });
    expect(query.queries[1]).toMatchObject({ prefix: true, queries: ['ser'] });
  });

  it('highlights the typed part of a word, a whole word matched with a typo, not the preposition', () => {
    expect(highlightRanges('Coffee Bean Eye Serum', ['coff'], [])).toEqual([[0, 4]]);
    expect(highlightRanges('Coffee Bean Eye Serum', ['serun'], ['serum'])).toEqual([[16, 21]]);
    expect(highlightRanges('የቡና ፍሬ የዓይን ሴረም', ['ቡና'], ['ቡና'])).toEqual([[1, 3]]);
    expect(highlightRanges('Buna Matte Lipstick', ['bunna'], ['buna'])).toEqual([[0, 4]]);
  });
});
