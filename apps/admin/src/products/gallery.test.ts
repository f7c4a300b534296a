import { LOW_STOCK_THRESHOLD } from '@shop/shared';
import { describe, expect, it } from 'vitest';
import { cleanLines, linesToText, moveItem, stockState, textToLines } from './gallery';

describe('product form helpers', () => {
  it('reorders the gallery, leaving impossible moves alone', () => {
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveItem(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
    expect(moveItem(['a', 'b'], 1, 2)).toEqual(['a', 'b']);
  });

  it('edits ingredients one a line and saves trimmed, non-empty lines', () => {
    expect(linesToText(['ማር', 'Honey'])).toBe('ማር\nHoney');
    expect(textToLines('ማር\n')).toEqual(['ማር', '']);
    expect(cleanLines(textToLines(' ማር \n\n የጤፍ ዱቄት'))).toEqual(['ማር', 'የጤፍ ዱቄት']);
    expect(cleanLines(undefined)).toEqual([]);
  });

  it('tells out, low and in stock at the shared threshold', () => {
    expect(stockState(0)).toBe('out');
    expect(stockState(1)).toBe('low');
    expect(stockState(LOW_STOCK_THRESHOLD)).toBe('low');
    expect(stockState(LOW_STOCK_THRESHOLD + 1)).toBe('in');
  });
});
