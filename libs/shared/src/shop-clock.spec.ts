import { ethiopianTime, formatShopDate, formatShopDateTime, zonedParts } from './dates';

describe('the shop clock (settings timezone)', () => {
  it('counts Ethiopian hours from sunrise in four periods', () => {
    expect(ethiopianTime(6, 0)).toBe('ከጠዋቱ 12:00');
    expect(ethiopianTime(7, 5)).toBe('ከጠዋቱ 1:05');
    expect(ethiopianTime(9, 30)).toBe('ከጠዋቱ 3:30');
    expect(ethiopianTime(12, 0)).toBe('ከሰዓት በኋላ 6:00');
    expect(ethiopianTime(14, 15)).toBe('ከሰዓት በኋላ 8:15');
    expect(ethiopianTime(18, 0)).toBe('ከምሽቱ 12:00');
    expect(ethiopianTime(21, 30)).toBe('ከምሽቱ 3:30');
    expect(ethiopianTime(0, 30)).toBe('ከሌሊቱ 6:30');
    expect(ethiopianTime(4, 0)).toBe('ከሌሊቱ 10:00');
  });

  it('writes Amharic times on the Ethiopian calendar with Ethiopian hours, no Western clock', () => {
    // 21:30 UTC is 00:30 the next day in Addis Ababa: 6:30 at night
    const text = formatShopDateTime('2026-11-26T21:30:00Z', 'am', 'Africa/Addis_Ababa');
    expect(text).toContain('ከሌሊቱ 6:30');
    expect(text).toContain('2019');
    expect(text).not.toMatch(/[A-Za-z]/);
    expect(text).not.toMatch(/ጥዋት|ከሰዓት(?! በኋላ)/);
  });

  it('follows the chosen zone, in English with a 24-hour clock', () => {
    expect(formatShopDateTime('2026-11-26T21:30:00Z', 'en', 'Africa/Addis_Ababa')).toBe('27 Nov 2026, 00:30');
    expect(formatShopDateTime('2026-11-26T21:30:00Z', 'en', 'UTC')).toBe('26 Nov 2026, 21:30');
    expect(formatShopDateTime('2026-11-26T21:30:00Z', 'en', 'America/New_York')).toBe('26 Nov 2026, 16:30');
    expect(formatShopDate('2026-11-26T21:30:00Z', 'en', 'Africa/Addis_Ababa')).toBe('27 November 2026');
    expect(formatShopDate('2026-11-26T21:30:00Z', 'en', 'UTC')).toBe('26 November 2026');
  });

  it('falls back to Addis Ababa for an unknown zone and shows nothing for a broken date', () => {
    expect(formatShopDateTime('2026-11-26T21:30:00Z', 'en', 'Mars/Olympus')).toBe('27 Nov 2026, 00:30');
    expect(formatShopDateTime('not a date', 'am', 'UTC')).toBe('');
    expect(zonedParts('2026-11-26T21:30:00Z', 'Africa/Addis_Ababa')).toEqual({
      year: '2026',
      month: '11',
      day: '27',
      hour: 0,
      minute: '30',
    });
  });
});
