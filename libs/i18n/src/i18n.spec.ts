import { dictionaries, isLanguage, keysOf, translate } from './index';

describe('i18n', () => {
  it('translates into Amharic and interpolates parameters', () => {
    expect(translate('am', 'nav.home')).toBe('መነሻ');
    expect(translate('en', 'catalogue.showing', { from: 1, to: 20, total: 44 })).toBe('Showing 1 - 20 of 44 products');
  });

  it('falls back to English, then to the key itself', () => {
    const am = dictionaries.am as Record<string, Record<string, string>>;
    const saved = am.nav.faq;
    delete am.nav.faq;
    try {
      expect(translate('am', 'nav.faq')).toBe('FAQ');
    } finally {
      am.nav.faq = saved;
    }
    expect(translate('am', 'no.such.key')).toBe('no.such.key');
  });

  it('has every English key in real Amharic (Ethiopic script)', () => {
    const enKeys = keysOf(dictionaries.en);
    expect(keysOf(dictionaries.am).sort()).toEqual(enKeys.sort());
    for (const key of enKeys) expect(translate('am', key)).toMatch(/[\u1200-\u137F]/);
  });

  it('accepts only en and am as languages', () => {
    expect(isLanguage('am')).toBe(true);
    expect(isLanguage('fr')).toBe(false);
  });
});
