import { describe, expect, it } from 'vitest';
import { languageCookie, languageFromCookie } from './language';

describe('language cookie', () => {
  it('reads en or am and defaults to en', () => {
    expect(languageFromCookie('a=1; language=am')).toBe('am');
    expect(languageFromCookie('language=fr')).toBe('en');
    expect(languageFromCookie(null)).toBe('en');
  });

  it('writes a cookie the server can read back', () => {
    expect(languageFromCookie(languageCookie('am').split(';')[0])).toBe('am');
  });
});
