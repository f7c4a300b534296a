import { calendarYear, formatDate, formatDateTime, formatGregorianDate, formatShopDateTime } from './dates';

describe('dates in the chosen language', () => {
  it('are written out in English, day first, in Addis Ababa time', () => {
    expect(formatDate('2026-11-23T08:00:00Z', 'en')).toBe('23 November 2026');
    expect(formatDate('2026-11-22T22:30:00Z', 'en')).toBe('23 November 2026');
    expect(formatDateTime('2026-11-22T22:30:00Z', 'en')).toBe('23 Nov 2026, 01:30');
  });

  it('use the Ethiopian calendar in Amharic', () => {
    const date = formatDate('2026-11-23T08:00:00Z', 'am');
    expect(date).toMatch(/[\u1200-\u137F]/);
    expect(date).toContain('2019');
    expect(date).not.toContain('2026');
    const time = formatDateTime('2026-11-23T08:00:00Z', 'am');
    expect(time).toContain('2019');
    // 11:00 in Addis Ababa is the fifth hour of the Ethiopian morning, never a Western 11:00
    expect(time).toContain('ከጠዋቱ 5:00');
    expect(time).not.toContain('11:00');
  });

  it('give the Gregorian date in Amharic words beside an Amharic date, and the English date otherwise', () => {
    const gregorian = formatGregorianDate('2026-11-22T22:30:00Z', 'am');
    expect(gregorian).toContain('23');
    expect(gregorian).toContain('2026');
    expect(gregorian).toContain('እ.ኤ.አ.');
    expect(gregorian).not.toMatch(/[A-Za-z]/);
    expect(formatGregorianDate('2026-11-22T22:30:00Z', 'en')).toBe('23 November 2026');
    expect(formatGregorianDate('not a date', 'am')).toBe('');
  });

  it("count the year in the language's calendar", () => {
    expect(calendarYear('2026-11-23T08:00:00Z', 'en')).toBe('2026');
    expect(calendarYear('2026-11-23T08:00:00Z', 'am')).toBe('2019');
    // the Ethiopian year starts in September (Meskerem)
    expect(calendarYear('2026-08-01T08:00:00Z', 'am')).toBe('2018');
  });

  it('show nothing for a broken date', () => {
    expect(formatDate('not a date', 'en')).toBe('');
    expect(formatDateTime('not a date', 'am')).toBe('');
  });
});

describe('formatShopDateTime, the same moment asked again', () => {
  it('writes each language, zone and moment its own way every time', () => {
    const end = '2026-12-31T20:59:00.000Z';
    for (let i = 0; i < 2; i++) {
      // 23:59 in Addis Ababa (UTC+3), the shop's zone by default
      expect(formatShopDateTime(end, 'en')).toBe('31 Dec 2026, 23:59');
      expect(formatShopDateTime(end, 'en', 'UTC')).toBe('31 Dec 2026, 20:59');
      expect(formatShopDateTime(new Date(end), 'en', 'UTC')).toBe('31 Dec 2026, 20:59');
      expect(formatShopDateTime('2027-01-01T08:00:00.000Z', 'en')).toBe('1 Jan 2027, 11:00');
      expect(formatShopDateTime(end, 'am')).not.toBe(formatShopDateTime(end, 'en'));
      expect(formatShopDateTime('not a date', 'en')).toBe('');
    }
  });
});
