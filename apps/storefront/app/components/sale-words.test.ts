import { describe, expect, it } from 'vitest';
import { translate } from '@shop/i18n';
import { saleWords } from './Price';

const sale = { name: { en: 'Timket week', am: 'የጥምቀት ሳምንት' }, endsAt: '2027-01-22T20:59:00Z' };

describe('a sale beside its price (docs/decisions/0095)', () => {
  it('names the sale and its end in the shop time zone, in English', () => {
    const t = (key: string, params?: Record<string, string | number>) => translate('en', key, params);
    expect(saleWords(sale, 'en', t)).toBe('Timket week, until 22 Jan 2027, 23:59');
  });

  it('in Amharic: the Amharic name, the Ethiopian calendar and hours, no Latin letters', () => {
    const t = (key: string, params?: Record<string, string | number>) => translate('am', key, params);
    const words = saleWords(sale, 'am', t);
    expect(words).toContain('የጥምቀት ሳምንት');
    expect(words).toContain('እስከ');
    expect(words).toContain('2019'); // Tir 2019 in the Ethiopian calendar
    expect(words).not.toMatch(/[A-Za-z]/);
  });

  it('says nothing without a sale', () => {
    expect(saleWords(undefined, 'en', (k) => k)).toBe('');
  });
});
