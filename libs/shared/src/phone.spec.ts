import { normaliseEthiopianPhone } from './phone';

describe('normaliseEthiopianPhone', () => {
  it('accepts the usual Ethiopian mobile formats', () => {
    expect(normaliseEthiopianPhone('+251911234567')).toBe('+251911234567');
    expect(normaliseEthiopianPhone('0911 23 45 67')).toBe('+251911234567');
    expect(normaliseEthiopianPhone('0712-345-678')).toBe('+251712345678');
    expect(normaliseEthiopianPhone('251911234567')).toBe('+251911234567');
  });

  it('refuses landlines, short numbers and other countries', () => {
    expect(normaliseEthiopianPhone('0111234567')).toBeUndefined();
    expect(normaliseEthiopianPhone('09112345')).toBeUndefined();
    expect(normaliseEthiopianPhone('+254712345678')).toBeUndefined();
  });
});
