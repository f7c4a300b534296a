import { describe, expect, it } from 'vitest';
import { translate } from '@shop/i18n';
import { noticeSaid, sayNotice } from '../apiMessages';
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

describe('a cart line whose sale ended', () => {
  const en = (key: string, params?: Record<string, string | number>) => translate('en', key, params);
  const am = (key: string, params?: Record<string, string | number>) => translate('am', key, params);

  it('says so by name in both languages, never in the API English', () => {
    const said = noticeSaid(
      { type: 'repriced', code: 'NOTICE_SALE_ENDED', params: { product: 'Rose Oil', price: 300 } },
      'cart',
    );
    expect(sayNotice(en, said)).toBe('The sale on Rose Oil has ended; it is back at its regular price');
    expect(sayNotice(am, said)).toContain('Rose Oil');
    expect(sayNotice(am, said).replace('Rose Oil', '')).not.toMatch(/[A-Za-z]/);
    const nameless = noticeSaid({ type: 'repriced', code: 'NOTICE_SALE_ENDED' }, 'cart');
    expect(sayNotice(en, nameless)).toMatch(/^A sale in your cart has ended/);
  });
});
