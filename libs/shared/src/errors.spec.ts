import { codeParams, isErrorCode } from './errors';

describe('coded error params', () => {
  it('keeps short texts and finite numbers only, trimmed and capped', () => {
    expect(
      codeParams({
        product: '  Shea Butter  ',
        available: 2,
        blank: '  ',
        nan: Number.NaN,
        nested: { a: 1 },
        long: 'x'.repeat(500),
      }),
    ).toEqual({ product: 'Shea Butter', available: 2, long: 'x'.repeat(120) });
  });

  it('answers nothing for what is not an object, and at most eight params', () => {
    expect(codeParams('INSUFFICIENT_STOCK')).toEqual({});
    expect(codeParams(null)).toEqual({});
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`p${i}`, i]));
    expect(Object.keys(codeParams(many))).toHaveLength(8);
  });

  it('knows its codes', () => {
    expect(isErrorCode('OWN_ACCOUNT_DEACTIVATE')).toBe(true);
    expect(isErrorCode('NOT_A_CODE')).toBe(false);
  });
});
