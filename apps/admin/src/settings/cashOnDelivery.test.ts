import { ETHIOPIAN_REGIONS } from '@shop/shared';
import { describe, expect, it } from 'vitest';
import { translator } from '../testTranslate';
import { codErrors, codForm, codPayload, codServerErrors, parseCodTotal } from './cashOnDelivery';

const form = codForm({ enabled: true, regions: ['Addis Ababa', 'Dire Dawa'], maxOrderTotal: 10000 });

describe('pay on delivery settings form', () => {
  it('accepts the defaults and sends them as the API takes them', () => {
    expect(codErrors(form)).toEqual({});
    expect(codPayload(form)).toEqual({
      enabled: true,
      regions: ['Addis Ababa', 'Dire Dawa'],
      maxOrderTotal: 10000,
    });
  });

  it('reads the total as ETB from 0 to 1,000,000 with at most two decimals', () => {
    expect(parseCodTotal('0')).toBe(0);
    expect(parseCodTotal(' 2500.50 ')).toBe(2500.5);
    expect(parseCodTotal('1000000')).toBe(1_000_000);
    for (const bad of ['', ' ', '-1', '1000000.01', '12.345', 'abc', '1e4', '10,000'])
      expect([bad, parseCodTotal(bad)]).toEqual([bad, undefined]);
  });

  it('refuses a cleared or negative total, with a message in both languages', () => {
    for (const maxOrderTotal of ['', '-5']) {
      const errors = codErrors({ ...form, maxOrderTotal });
      expect(errors).toEqual({ maxOrderTotal: 'shop.admin.settings.cod.maxInvalid' });
      expect(translator('en')(errors.maxOrderTotal!)).toBe(
        'Enter an amount in ETB from 0 to 1,000,000 (at most two decimals)',
      );
      expect(translator('am')(errors.maxOrderTotal!)).toMatch(/[\u1200-\u137F]/);
    }
  });

  it('asks for a region while it is switched on, and not once it is off', () => {
    const errors = codErrors({ ...form, regions: [] });
    expect(errors).toEqual({ regions: 'shop.admin.settings.cod.regionsRequired' });
    expect(translator('en')(errors.regions!)).toBe('Choose at least one region, or turn pay on delivery off');
    expect(translator('am')(errors.regions!)).toMatch(/^ቢያንስ አንድ ክልል ይምረጡ/);
    expect(codErrors({ ...form, enabled: false, regions: [] })).toEqual({});
  });

  it('sends the regions once each in the canonical order, whatever the order they were picked in', () => {
    expect(codPayload({ ...form, regions: ['Oromia', 'Addis Ababa', 'Oromia'] }).regions).toEqual([
      'Addis Ababa',
      'Oromia',
    ]);
    const all = codPayload({ ...form, regions: ETHIOPIAN_REGIONS.map((r) => r.en).reverse() }).regions;
    expect(all).toEqual(ETHIOPIAN_REGIONS.map((r) => r.en));
  });

  it("puts the API's field errors under the form's fields", () => {
    expect(
      codServerErrors({
        'cashOnDelivery.regions.1': 'not a region',
        'cashOnDelivery.maxOrderTotal': 'too big',
        siteName: 'ignored',
      }),
    ).toEqual({ regions: 'not a region', maxOrderTotal: 'too big' });
    expect(codServerErrors(undefined)).toEqual({});
  });
});
