import { afterEach, describe, expect, it, vi } from 'vitest';

/** A fresh i18nProvider module for a returning user of `language`; `english` says whether English may load. */
async function firstScreen(language: 'en' | 'am', english: 'available' | 'absent') {
  vi.resetModules();
  vi.stubGlobal('localStorage', { getItem: () => language, setItem: () => undefined });
  vi.stubGlobal('window', { addEventListener: () => undefined, removeEventListener: () => undefined });
  vi.doMock('./fonts', () => ({ loadFonts: () => Promise.resolve() }));
  if (english === 'absent')
    vi.doMock('./i18n/english', () => {
      throw new Error('the English texts were fetched');
    });
  const provider = await import('./i18nProvider');
  // after react-admin's own modules, which look for a real DOM only when there is a document
  vi.stubGlobal('document', { documentElement: { lang: '' } });
  await provider.prepareFirstScreen();
  return provider;
}

afterEach(() => {
  vi.doUnmock('./i18n/english');
  vi.doUnmock('./fonts');
  vi.unstubAllGlobals();
});

describe("the back office's texts, one language's chunk at a time (docs/decisions/0088)", () => {
  it('draws an Amharic first screen, react-admin and the shop in Amharic, without fetching the English texts', async () => {
    const { i18nProvider } = await firstScreen('am', 'absent');
    expect(i18nProvider.getLocale()).toBe('am');
    expect(document.documentElement.lang).toBe('am');
    expect(i18nProvider.translate('ra.auth.sign_in')).toMatch(/[\u1200-\u137f]/);
    expect(i18nProvider.translate('shop.admin.auth.tooMany')).toMatch(/[\u1200-\u137f]/);
    expect(i18nProvider.translate('shop.admin.auth.refused')).not.toBe('shop.admin.auth.refused');
  });

  it('draws an English first screen in English, and switches to Amharic once its texts are there', async () => {
    const { i18nProvider } = await firstScreen('en', 'available');
    expect(i18nProvider.translate('ra.auth.sign_in')).toBe('Sign in');
    await i18nProvider.changeLocale('am');
    expect(i18nProvider.getLocale()).toBe('am');
    expect(document.documentElement.lang).toBe('am');
    expect(i18nProvider.translate('ra.auth.sign_in')).toMatch(/[\u1200-\u137f]/);
    await i18nProvider.changeLocale('en');
    expect(i18nProvider.translate('ra.auth.sign_in')).toBe('Sign in');
  });

  it('draws the first screen in English when the Amharic texts do not arrive', async () => {
    vi.doMock('./i18n/amharic', () => {
      throw new Error('offline');
    });
    try {
      const { i18nProvider } = await firstScreen('am', 'available');
      expect(i18nProvider.getLocale()).toBe('en');
      expect(document.documentElement.lang).toBe('en');
      expect(i18nProvider.translate('ra.auth.sign_in')).toBe('Sign in');
    } finally {
      vi.doUnmock('./i18n/amharic');
    }
  });
});
