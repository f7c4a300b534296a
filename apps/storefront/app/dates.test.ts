import { describe, expect, it } from 'vitest';
import { formatDate } from './dates';

describe('review dates', () => {
  it('are written out in English', () => {
    expect(formatDate('2026-11-23T08:00:00Z', 'en')).toBe('23 November 2026');
  });

  it('use the Ethiopian calendar in Amharic', () => {
    const am = formatDate('2026-11-23T08:00:00Z', 'am');
    expect(am).toMatch(/[\u1200-\u137F]/);
    expect(am).toContain('2019');
  });

  it('count the day in Addis Ababa time', () => {
    expect(formatDate('2026-11-22T22:30:00Z', 'en')).toBe('23 November 2026');
  });

  it('show nothing for a broken date', () => {
    expect(formatDate('not a date', 'en')).toBe('');
  });
});
