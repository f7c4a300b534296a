import accountAm from './account.am.json';
import accountEn from './account.en.json';
import adminAm from './admin.am.json';
import adminEn from './admin.en.json';
import am from './am.json';
import en from './en.json';
import mailAm from './mail.am.json';
import mailEn from './mail.en.json';
import { dictionaries, isLanguage, keysOf, storefrontDictionary, translate, translatorOver } from './index';
import shopAm from './shop.am.json';
import shopEn from './shop.en.json';
import uiAm from './ui.am.json';
import uiEn from './ui.en.json';

describe('i18n', () => {
  it("gives the storefront one language's shop namespaces, without the back office's or the mails'", () => {
    for (const lang of ['en', 'am'] as const) {
      const shop = storefrontDictionary(lang);
      expect(Object.keys(shop)).toEqual(
        expect.arrayContaining(['common', 'errors', 'catalogue', 'checkout', 'ui']),
      );
      for (const namespace of ['admin', 'outbox', 'mail']) expect(shop[namespace]).toBeUndefined();
      const t = translatorOver(shop);
      expect(t('nav.home')).toBe(translate(lang, 'nav.home'));
      expect(t('catalogue.showing', { from: 1, to: 20, total: 44 })).toBe(
        translate(lang, 'catalogue.showing', { from: 1, to: 20, total: 44 }),
      );
      expect(t('admin.nope.missing')).toBe('admin.nope.missing');
    }
  });

  it('translates into Amharic and interpolates parameters', () => {
    expect(translate('am', 'nav.home')).toBe('መነሻ');
    expect(translate('en', 'catalogue.showing', { from: 1, to: 20, total: 44 })).toBe(
      'Showing 1 - 20 of 44 products',
    );
  });

  it('falls back to English, then to the key itself', () => {
    const am = dictionaries.am as Record<string, Record<string, string>>;
    const saved = am.nav.faq;
    delete am.nav.faq;
    try {
      expect(translate('am', 'nav.faq')).toBe('FAQ');
    } finally {
      am.nav.faq = saved;
    }
    expect(translate('am', 'no.such.key')).toBe('no.such.key');
  });

  it('has every English key in real Amharic (Ethiopic script)', () => {
    const enKeys = keysOf(dictionaries.en);
    expect(keysOf(dictionaries.am).sort()).toEqual(enKeys.sort());
    for (const key of enKeys) expect(translate('am', key)).toMatch(/[\u1200-\u137F]/);
  });

  it('accepts only en and am as languages', () => {
    expect(isLanguage('am')).toBe(true);
    expect(isLanguage('fr')).toBe(false);
  });

  it('keeps each top-level namespace in one file, so merging never hides a key', () => {
    const files = { en, shopEn, accountEn, adminEn, mailEn, uiEn };
    const owners = new Map<string, string>();
    for (const [file, dictionary] of Object.entries(files)) {
      for (const namespace of Object.keys(dictionary)) {
        expect(`${namespace} in ${file}`).toBe(`${namespace} in ${owners.get(namespace) ?? file}`);
        owners.set(namespace, file);
      }
    }
  });

  it('pairs every English file with an Amharic file of the same keys', () => {
    const pairs = [
      [en, am],
      [shopEn, shopAm],
      [accountEn, accountAm],
      [adminEn, adminAm],
      [mailEn, mailAm],
      [uiEn, uiAm],
    ] as const;
    for (const [english, amharic] of pairs) {
      expect(keysOf(amharic as never).sort()).toEqual(keysOf(english as never).sort());
    }
  });

  it('says the shop-window texts of the spec', () => {
    expect(translate('en', 'catalogue.empty')).toBe('No products found.');
    expect(translate('en', 'errors.loadingProducts')).toBe('Error loading products.');
    expect(translate('en', 'product.addedToCart')).toBe('Added to Cart!');
    expect(translate('en', 'product.signInToAdd')).toBe('Sign in to Add to Cart');
    expect(translate('en', 'footer.hours')).toBe('Monday to Friday, 9AM to 6PM');
    expect(translate('am', 'catalogue.showing', { from: 1, to: 20, total: 44 })).toBe(
      'ከ44 ምርቶች 1 - 20 በማሳየት ላይ',
    );
  });
});

describe('translatorOver, asked the same keys again', () => {
  it('answers each dictionary its own texts, the key for a missing one, and fills the placeholders every time', () => {
    const en = { cart: { count: '{count} items', title: 'Cart' } };
    const am = { cart: { count: '{count} ዕቃዎች', title: 'ጋሪ' } };
    const tEn = translatorOver(en);
    const tAm = translatorOver(am);
    for (let i = 0; i < 2; i++) {
      expect(tEn('cart.title')).toBe('Cart');
      expect(tAm('cart.title')).toBe('ጋሪ');
      expect(tEn('cart.count', { count: i })).toBe(`${i} items`);
      expect(tAm('cart.count', { count: i + 5 })).toBe(`${i + 5} ዕቃዎች`);
      expect(tEn('cart.missing')).toBe('cart.missing');
      expect(tEn('cart')).toBe('cart');
    }
    // a new dictionary object is looked up afresh (the texts kept belong to the object they came from)
    expect(translatorOver({ cart: { title: 'Basket' } })('cart.title')).toBe('Basket');
  });
});
