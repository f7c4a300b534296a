import { describe, expect, it } from 'vitest';
import { shopDate, shopDateTime } from './format';

describe('back-office dates on the shop clock', () => {
  it('writes Amharic times in Ethiopian hours on the Ethiopian calendar, no 12-hour Western clock', () => {
    // 09:00 UTC is 12:00 in Addis Ababa: the sixth hour of the day
    const noon = shopDateTime('2026-11-26T09:00:00Z', 'am', 'Africa/Addis_Ababa');
    expect(noon).toContain('ከሰዓት በኋላ 6:00');
    expect(noon).toContain('2019');
    expect(noon).not.toMatch(/[A-Za-z]|ጥዋት|12:00/);
    expect(shopDateTime('2026-11-26T04:15:00Z', 'am', 'Africa/Addis_Ababa')).toContain('ከጠዋቱ 1:15');
    expect(shopDateTime('2026-11-26T17:45:00Z', 'am', 'Africa/Addis_Ababa')).toContain('ከምሽቱ 2:45');
  });

  it('follows the chosen zone: 21:30 UTC is the next day in Addis Ababa, the same day in UTC', () => {
    expect(shopDateTime('2026-11-26T21:30:00Z', 'en', 'Africa/Addis_Ababa')).toBe('27 Nov 2026, 00:30');
    expect(shopDateTime('2026-11-26T21:30:00Z', 'en', 'UTC')).toBe('26 Nov 2026, 21:30');
    expect(shopDate('2026-11-26T21:30:00Z', 'en', 'Africa/Addis_Ababa')).toBe('27 November 2026');
    expect(shopDateTime('2026-11-26T21:30:00Z', 'am', 'Africa/Addis_Ababa')).toContain('ከሌሊቱ 6:30');
  });

  it('shows nothing for a missing or broken date', () => {
    expect(shopDateTime(undefined, 'en', 'UTC')).toBe('');
    expect(shopDateTime('not a date', 'am', 'UTC')).toBe('');
    expect(shopDate(null, 'am', 'UTC')).toBe('');
  });
});
