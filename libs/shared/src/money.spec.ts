import { parseAmount } from './money';

describe('parseAmount', () => {
  it('reads amounts with at most two decimals as santim', () => {
    expect(parseAmount(0)).toBe(0);
    expect(parseAmount(-0)).toBe(0);
    expect(parseAmount(890)).toBe(89_000);
    expect(parseAmount(1249.99)).toBe(124_999);
    expect(parseAmount(0.1)).toBe(10);
    expect(parseAmount(1e3)).toBe(100_000);
    expect(parseAmount(1.5e-1)).toBe(15);
    expect(parseAmount(-12.5)).toBe(-1250);
  });

  it('refuses more than two decimals in any notation', () => {
    expect(parseAmount(0.001)).toBeNull();
    expect(parseAmount(1e-7)).toBeNull();
    expect(parseAmount(5e-324)).toBeNull();
    expect(parseAmount(1.005)).toBeNull();
    expect(parseAmount(0.1 + 0.2)).toBeNull();
  });

  it('refuses what is not a finite number or too large for exact santim', () => {
    for (const value of [
      NaN,
      Infinity,
      -Infinity,
      '12',
      null,
      undefined,
      {},
      [],
      true,
      1e21,
      1e300,
      Number.MAX_VALUE,
    ])
      expect(parseAmount(value)).toBeNull();
    expect(parseAmount(1e14)).toBeNull();
    expect(parseAmount(1e13)).toBe(1e15);
  });
});
