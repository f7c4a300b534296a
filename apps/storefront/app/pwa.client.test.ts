import { translatorOver } from '@shop/i18n';
import { describe, expect, it } from 'vitest';
import { storefrontDictionary } from '@shop/i18n';
import { keptFieldName, sentNotice } from './pwa.client';
import type { TapResult } from '../sw/queue';

describe('the checkout fields kept across a dropped connection', () => {
  it('keeps the address and contact fields, never secrets, the payment choice or the order key', () => {
    for (const [name, type] of [
      ['name', 'text'],
      ['phone', 'tel'],
      ['email', 'email'],
      ['state', 'select-one'],
      ['street', 'text'],
      ['shippingMethod', 'radio'],
      ['saveAddress', 'checkbox'],
    ])
      expect(keptFieldName({ name, type }), name).toBe(name);
    for (const [name, type] of [
      ['password', 'password'],
      ['paymentMethod', 'radio'],
      ['idempotencyKey', 'hidden'],
      ['country', 'hidden'],
      ['cardNumber', 'text'],
      ['cvv', 'text'],
      ['pin', 'text'],
      ['', 'text'],
    ])
      expect(keptFieldName({ name, type }), name).toBeNull();
  });
});

describe('the notice after the offline taps were sent', () => {
  const results: TapResult[] = [
    { key: '1', kind: 'cart', outcome: 'done' },
    { key: '2', kind: 'cart', outcome: 'done' },
    { key: '3', kind: 'wishlist', outcome: 'done' },
    { key: '4', kind: 'cart', outcome: 'refused', said: { key: 'wishlist.operationFailed' } },
  ];

  it('says what was added and what was refused, in English and in Amharic', () => {
    const en = sentNotice(results, translatorOver(storefrontDictionary('en')));
    expect(en).toEqual([
      'Back online: 2 product(s) added to your cart.',
      'Back online: your wishlist was updated.',
      expect.stringMatching(/^Back online, but this could not be done: \S/),
    ]);
    const am = sentNotice(results, translatorOver(storefrontDictionary('am')));
    expect(am[0]).toBe('ግንኙነቱ ተመልሷል፦ 2 ምርት ወደ ጋሪዎ ተጨምሯል።');
    expect(am.join(' ')).not.toMatch(/[A-Za-z]{3,}/);
  });
});
