import { describe, expect, it } from 'vitest';
import { isoToShopLocal, shopLocalToIso } from './shopTime';

describe("a sale's times in the shop's zone", () => {
  it('reads 09:00 in Addis Ababa as 06:00 UTC, whatever the browser zone', () => {
    expect(shopLocalToIso('2027-01-15T09:00', 'Africa/Addis_Ababa')).toBe('2027-01-15T06:00:00.000Z');
    expect(shopLocalToIso('2027-01-15T01:30', 'Africa/Addis_Ababa')).toBe('2027-01-14T22:30:00.000Z');
    expect(shopLocalToIso('2027-01-15T09:00', 'UTC')).toBe('2027-01-15T09:00:00.000Z');
  });

  it('shows a stored instant as the shop clock reads it, and back unchanged', () => {
    expect(isoToShopLocal('2027-01-14T22:30:00.000Z', 'Africa/Addis_Ababa')).toBe('2027-01-15T01:30');
    for (const iso of ['2027-01-19T20:59:00.000Z', '2026-07-01T00:00:00.000Z'])
      expect(shopLocalToIso(isoToShopLocal(iso, 'Africa/Addis_Ababa'), 'Africa/Addis_Ababa')).toBe(iso);
    // a zone with summer time
    expect(shopLocalToIso('2027-07-01T12:00', 'Europe/Berlin')).toBe('2027-07-01T10:00:00.000Z');
  });

  it('leaves empty or malformed text empty', () => {
    expect(shopLocalToIso('', 'Africa/Addis_Ababa')).toBeUndefined();
    expect(shopLocalToIso('tomorrow', 'Africa/Addis_Ababa')).toBeUndefined();
    expect(isoToShopLocal(undefined, 'Africa/Addis_Ababa')).toBe('');
  });
});
