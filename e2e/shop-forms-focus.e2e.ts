import { translate } from '@shop/i18n';
import type { Page } from 'playwright-core';
import { ETHIOPIC_FONT, loadedFontFiles } from './font-check';
import { CUSTOMER, shopHarness } from './shop-support';

const PHONE = { width: 390, height: 844 };
/** A refused submit answers 400: the browser logs it. */
const REFUSED = [/status of 400/];

/**
 * Issue 28.3-4: a failed submit brings the customer to what went wrong (the error summary at the top of
 * the form, focused and in view), with and without JavaScript; the region select is a shop control.
 */
describe('storefront forms: errors the customer sees, controls of the shop', () => {
  const { open, api, login } = shopHarness();
  let token: string;

  beforeAll(async () => {
    token = await login(CUSTOMER.email, CUSTOMER.password);
    const { products } = await api<{ products: { _id: string }[] }>('/products?limit=20&inStock=true');
    await api('/cart/clear', { method: 'DELETE', token });
    await api('/cart/add', {
      method: 'POST',
      token,
      body: JSON.stringify({ productId: products[0]._id, quantity: 1 }),
    });
  });

  afterAll(async () => {
    await api('/cart/clear', { method: 'DELETE', token }).catch(() => undefined);
  });

  /** What has focus, and whether its top is inside the viewport (and all of it, when it fits). */
  async function focused(page: Page) {
    return page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      const box = el?.getBoundingClientRect();
      const inView =
        !!box &&
        box.top >= 0 &&
        box.top < window.innerHeight &&
        (box.height > window.innerHeight || box.bottom <= window.innerHeight);
      return {
        id: el?.id ?? '',
        invalid: el?.getAttribute('aria-invalid') === 'true',
        inView,
        scrolled: window.scrollY > 0,
      };
    });
  }

  describe.each([
    ['en', true],
    ['en', false],
    ['am', true],
    ['am', false],
  ] as const)('in %s, JavaScript %s', (lang, javaScriptEnabled) => {
    it("a failed 'Pay Now' moves focus to the error summary, in view, its links going to the fields", async () => {
      const { page, errors, close } = await open('/checkout', {
        lang,
        token,
        viewport: PHONE,
        javaScriptEnabled,
        allow: REFUSED,
      });
      await page.locator('input[name=phone]').fill('12345');
      await page.locator('select[name=state]').selectOption('');
      await page.locator('input[name=street]').fill('');
      // the pay button is at the end of a long form: the errors start far above it
      const pay = page.getByRole('button', { name: translate(lang, 'checkout.payNow') });
      await pay.scrollIntoViewIfNeeded();
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
      await pay.click();
      const summary = page.getByTestId('form-errors');
      await summary.waitFor();
      await page.waitForFunction(() => document.activeElement?.id === 'form-errors');
      expect(await focused(page)).toMatchObject({ id: 'form-errors', inView: true });
      expect(await summary.getAttribute('role')).toBe('alert');
      expect(await summary.textContent()).toContain(translate(lang, 'ui.formErrors.title'));
      const links = summary.getByRole('link');
      const targets = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      expect(targets).toEqual(expect.arrayContaining(['#field-phone', '#field-state', '#field-street']));
      // each target is a control of the form
      for (const href of targets) expect(await page.locator(`#checkout-form ${href}`).count()).toBe(1);
      // following the region's link lands on the region select
      await links.filter({ hasText: translate(lang, 'checkout.stateRequired') }).click();
      if (javaScriptEnabled) await page.waitForFunction(() => document.activeElement?.id === 'field-state');
      else expect(new URL(page.url()).hash).toBe('#field-state');
      await close();
      expect(errors).toEqual([]);
    });

    it('a failed sign-up moves focus to the error summary, in view', async () => {
      const { page, errors, close } = await open('/signup', {
        lang,
        viewport: PHONE,
        javaScriptEnabled,
        allow: REFUSED,
      });
      await page.locator('input[name=email]').fill('not-an-email');
      await page.getByRole('button', { name: translate(lang, 'auth.signUp') }).click();
      await page.getByTestId('form-errors').waitFor();
      await page.waitForFunction(() => document.activeElement?.id === 'form-errors');
      expect(await focused(page)).toMatchObject({ id: 'form-errors', inView: true });
      const text = await page.getByTestId('form-errors').textContent();
      expect(text).toContain(translate(lang, 'auth.nameRequired'));
      expect(text).toContain(translate(lang, 'auth.emailInvalid'));
      await close();
      expect(errors).toEqual([]);
    });
  });

  it('a second failed submit (JavaScript, the summary already there) moves focus back to it', async () => {
    const { page, errors, close } = await open('/signup', { viewport: PHONE, allow: REFUSED });
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForFunction(() => document.activeElement?.id === 'form-errors');
    await page.locator('input[name=name]').fill('Abebe');
    await page.locator('input[name=password]').focus();
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForFunction(() => document.activeElement?.id === 'form-errors');
    expect(await focused(page)).toMatchObject({ id: 'form-errors', inView: true });
    await close();
    expect(errors).toEqual([]);
  });

  /** The fonts Chromium drew the region select's text with (the select and its user-agent shadow tree). */
  async function selectFonts(page: Page): Promise<{ familyName: string; glyphCount: number }[]> {
    await page.evaluate(async () => {
      await document.fonts.ready;
      for (let i = 0; i < 3; i++) {
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        await document.fonts.ready;
      }
    });
    const cdp = await page.context().newCDPSession(page);
    try {
      await cdp.send('DOM.enable');
      await cdp.send('CSS.enable');
      const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
      type Node = (typeof root)['children'] extends (infer N)[] | undefined ? N : never;
      const find = (n: Node): Node | undefined =>
        n.nodeName === 'SELECT' && (n.attributes ?? []).join(' ').includes('name state')
          ? n
          : [
              ...(n.children ?? []),
              ...(n.shadowRoots ?? []),
              ...(n.contentDocument ? [n.contentDocument] : []),
            ]
              .map(find)
              .find(Boolean);
      const all = (n: Node): Node[] => [n, ...[...(n.children ?? []), ...(n.shadowRoots ?? [])].flatMap(all)];
      const select = find(root as Node);
      expect(select).toBeDefined();
      const fonts = [];
      for (const node of all(select!)) {
        const { fonts: used } = await cdp
          .send('CSS.getPlatformFontsForNode', { nodeId: node.nodeId })
          .catch(() => ({ fonts: [] }));
        fonts.push(...used);
      }
      return fonts;
    } finally {
      await cdp.detach();
    }
  }

  it.each(['en', 'am'] as const)(
    'draws the region select (in %s) 44 px tall in the shop font and size, Ethiopic with the Ethiopic font',
    async (lang) => {
      const { page, errors, close } = await open('/checkout', { lang, token, viewport: PHONE });
      const region = page.locator('select[name=state]');
      await region.selectOption('Oromia');
      // an English page shows the region's English name: there an Ethiopic name (as a customer may type
      // one) is put in the chosen option, which the page's fonts must draw too
      if (lang === 'en')
        await region.evaluate((select: HTMLSelectElement) => {
          select.options[select.selectedIndex].textContent = 'ኦሮሚያ';
        });
      expect(await region.evaluate((s: HTMLSelectElement) => s.options[s.selectedIndex].textContent)).toBe(
        'ኦሮሚያ',
      );
      const style = await region.evaluate((el) => {
        const css = getComputedStyle(el);
        return { height: el.getBoundingClientRect().height, family: css.fontFamily, size: css.fontSize };
      });
      expect(style.height).toBeGreaterThanOrEqual(44);
      expect(style.family).toMatch(/^"?Noto Sans Ethiopic"?,/);
      expect(parseFloat(style.size)).toBeGreaterThanOrEqual(16);
      const fonts = await selectFonts(page);
      // no system font on this machine has Ethiopic glyphs: only the shop's font can have drawn them
      expect(fonts.filter((f) => ETHIOPIC_FONT.test(f.familyName) && f.glyphCount > 0)).not.toEqual([]);
      expect(fonts.map((f) => f.familyName)).not.toContain('Arial');
      if (lang === 'en')
        // the English page downloaded the Amharic cut because it now shows Ethiopic text
        expect((await loadedFontFiles(page)).some((f) => /\/amharic-400-[\w-]+\.woff2$/.test(f))).toBe(true);
      await close();
      expect(errors).toEqual([]);
    },
  );
});
