import { formatDate, formatDateTime } from './dates';

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
    expect(time).toContain('11:00');
  });

  it('show nothing for a broken date', () => {
    expect(formatDate('not a date', 'en')).toBe('');
    expect(formatDateTime('not a date', 'am')).toBe('');
  });
});
