import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { translator } from '../testTranslate';
import { promotionPayload } from './PromotionForm';

describe('the sales form', () => {
  it('sends the API only the fields it takes, the value as a number', () => {
    const record = {
      id: 'p1',
      _id: 'p1',
      status: 'running',
      name: { en: 'Timket week', am: 'የጥምቀት ሳምንት' },
      kind: 'percent',
      value: '20',
      productIds: [],
      categories: ['skincare'],
      startsAt: '2027-01-15T06:00:00.000Z',
      endsAt: '2027-01-22T20:59:00.000Z',
      active: false,
    };
    expect(promotionPayload(record)).toEqual({
      name: { en: 'Timket week', am: 'የጥምቀት ሳምንት' },
      kind: 'percent',
      value: 20,
      productIds: [],
      categories: ['skincare'],
      startsAt: '2027-01-15T06:00:00.000Z',
      endsAt: '2027-01-22T20:59:00.000Z',
      active: false,
    });
  });

  it('has every label of the list and form in English and in Amharic (Ethiopic script)', () => {
    const sources = ['PromotionList.tsx', 'PromotionForm.tsx']
      .map((f) => readFileSync(new URL(`./${f}`, import.meta.url), 'utf8'))
      .join('\n');
    const keys = [...new Set(sources.match(/shop\.admin\.promotions\.[\w.]+/g) ?? [])].filter(
      (k) => !k.endsWith('.'),
    );
    const statuses = ['scheduled', 'running', 'ended', 'paused'].map(
      (s) => `shop.admin.promotions.status.${s}`,
    );
    const en = translator('en');
    const am = translator('am');
    expect(keys.length).toBeGreaterThan(10);
    for (const key of [...keys, ...statuses, 'shop.admin.menu.promotions']) {
      expect(en(key), key).not.toBe(key);
      expect(am(key), key).not.toBe(key);
      expect(am(key), key).toMatch(/[\u1200-\u137F]/);
    }
  });
});
