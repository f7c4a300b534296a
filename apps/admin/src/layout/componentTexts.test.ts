import { describe, expect, it } from 'vitest';
import { componentTexts } from './ComponentTexts';

describe("MUI's screen-reader labels", () => {
  it('come from the dictionary: pagination, rating stars, close', () => {
    const seen: [string, Record<string, unknown> | undefined][] = [];
    const t = (key: string, options?: Record<string, unknown>) => {
      seen.push([key, options]);
      return `«${key}»`;
    };
    const c = componentTexts(t) as Record<string, { defaultProps: Record<string, unknown> }>;
    expect(c.MuiPagination.defaultProps['aria-label']).toBe('«shop.admin.a11y.pagination»');
    const stars = c.MuiRating.defaultProps.getLabelText as (v: number) => string;
    expect(stars(5)).toBe('«shop.admin.a11y.stars»');
    expect(seen).toContainEqual(['shop.admin.a11y.stars', { smart_count: 5 }]);
    expect(c.MuiAlert.defaultProps.closeText).toBe('«shop.admin.a11y.close»');
  });
});
