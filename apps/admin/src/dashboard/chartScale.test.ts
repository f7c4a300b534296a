import { describe, expect, it } from 'vitest';
import { activityColor, axisMax, thousands } from './chartScale';

describe('dashboard chart and activity', () => {
  it('labels the sales axis in thousands with one decimal', () => {
    expect(thousands(0)).toBe('0.0k');
    expect(thousands(1500)).toBe('1.5k');
    expect(thousands(12345)).toBe('12.3k');
    expect(thousands(250)).toBe('0.3k');
  });

  it('rounds the top of the axis up to a tidy value', () => {
    expect(axisMax(0)).toBe(1000);
    expect(axisMax(1234)).toBe(2000);
    expect(axisMax(870)).toBe(900);
  });

  it('colours delivered green, pending yellow and everything else grey', () => {
    expect(activityColor('delivered')).toBe('#2e7d32');
    expect(activityColor('pending')).toBe('#f9a825');
    expect(activityColor('shipped')).toBe('#9e9e9e');
    expect(activityColor(undefined)).toBe('#9e9e9e');
  });
});
