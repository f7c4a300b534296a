import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { ADMIN, shopHarness } from './shop-support';

// Uploaded photos on a 390 px phone (docs/decisions/0093-photo-variants.md): <picture> with AVIF and
// WebP sources, and Save-Data: on giving smaller copies and a hero that does not advance by itself.

const PHONE = { width: 390, height: 844 };

/** A phone photo: noisy 1500x2000 JPEG with a GPS position. */
const photo = () =>
  sharp({
    create: {
      width: 1500,
      height: 2000,
      channels: 3,
      background: '#8d5a3b',
      noise: { type: 'gaussian', mean: 110, sigma: 30 },
    },
  })
    .jpeg({ quality: 80 })
    .withExifMerge({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '9/1 1/1 48/1' } })
    .toBuffer();

/** The copy the browser chose for the product's main image, once it is loaded. */
async function chosen(page: Page) {
  const img = page.locator('.main-image picture img');
  await img.waitFor();
  await page.waitForFunction(() => {
    const el = document.querySelector<HTMLImageElement>('.main-image picture img');
    return !!el && el.complete && el.naturalWidth > 0;
  });
  const src = await img.evaluate((el: HTMLImageElement) => el.currentSrc);
  // the copy's size (the API is another origin: the page's resource timing does not tell it)
  const bytes = (await (await fetch(src)).arrayBuffer()).byteLength;
  return { src, bytes };
}

describe('uploaded photos on a phone', () => {
  const { h, open, api, login } = shopHarness();
  let productId = '';
  let url = '';
  /** bytes of the main image's copy chosen without Save-Data */
  let usualBytes = 0;

  beforeAll(async () => {
    const token = await login(ADMIN.email, ADMIN.password);
    const form = new FormData();
    form.append('images', new Blob([await photo()], { type: 'image/jpeg' }), 'IMG_0001.jpg');
    const res = await fetch(`${h.stack.api}/uploads`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: form,
    });
    expect(res.status).toBe(201);
    url = ((await res.json()) as { urls: string[] }).urls[0];
    const list = await api<{ products: { _id: string }[] }>('/products?limit=1&sort=newest');
    productId = list.products[0]._id;
    // the product as the API answers it (read-only fields are ignored by the update)
    const product = await api<Record<string, unknown>>(`/products/${productId}`);
    const body: Record<string, unknown> = { ...product, images: [url] };
    // fields of the answer that the form refuses ('property X should not exist': prices the API works
    // out) are left out and the product is sent again
    for (let tries = 0; ; tries++) {
      const res = await fetch(`${h.stack.api}/products/${productId}`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (res.ok) break;
      const answer = (await res.json()) as { errors?: { message: string }[] };
      const refused = (answer.errors ?? []).map(
        (e) => /^property (\w+) should not exist$/.exec(e.message)?.[1],
      );
      if (res.status !== 400 || !refused.some(Boolean) || tries >= 5)
        throw new Error(`the product was not saved: ${res.status} ${JSON.stringify(answer)}`);
      for (const field of refused) if (field) delete body[field];
    }
  }, 60_000);

  it('shows the product photo as <picture> with AVIF and WebP sources, its colour while it loads', async () => {
    const { page, errors, close } = await open(`/product/${productId}`, {
      viewport: PHONE,
      deviceScaleFactor: 3,
    });
    const picture = page.locator('.main-image picture');
    const stem = url.replace(/\.webp$/, '');
    const avif = await picture.locator('source[type="image/avif"]').getAttribute('srcset');
    const webp = await picture.locator('source[type="image/webp"]').getAttribute('srcset');
    expect(avif).toBe([320, 640, 1024, 1500].map((w) => `${stem}-${w}.avif ${w}w`).join(', '));
    expect(webp).toBe([320, 640, 1024, 1500].map((w) => `${stem}-${w}.webp ${w}w`).join(', '));
    expect(await picture.locator('source').first().getAttribute('sizes')).toBe(
      '(max-width: 760px) 100vw, 600px',
    );
    const img = picture.locator('img');
    expect(await img.getAttribute('fetchpriority')).toBe('high');
    expect(await img.getAttribute('loading')).toBeNull();
    expect(await img.getAttribute('width')).toBe('560');
    expect(await img.getAttribute('style')).toMatch(/background-color/);
    // 390 CSS px at 3 device pixels: the browser takes a large AVIF copy
    const { src, bytes } = await chosen(page);
    expect(src).toMatch(/-(1024|1500)\.avif$/);
    expect(bytes).toBeGreaterThan(0);
    usualBytes = bytes;
    await close();
    expect(errors).toEqual([]);
  });

  it('with Save-Data: on offers only the small copies', async () => {
    const { page, errors, close } = await open(`/product/${productId}`, {
      viewport: PHONE,
      deviceScaleFactor: 3,
      extraHTTPHeaders: { 'Save-Data': 'on' },
    });
    const avif = await page.locator('.main-image picture source[type="image/avif"]').getAttribute('srcset');
    expect(avif?.split(', ').map((s) => s.split(' ')[1])).toEqual(['320w', '640w']);
    const { src, bytes } = await chosen(page);
    expect(src).toMatch(/-640\.avif$/);
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThan(usualBytes / 2);
    await close();
    expect(errors).toEqual([]);
  });

  it('honours Save-Data on Amharic pages too', async () => {
    for (const path of [`/am/product/${productId}`, '/am/']) {
      const { page, errors, close } = await open(path, {
        lang: 'am',
        viewport: PHONE,
        deviceScaleFactor: 3,
        extraHTTPHeaders: { 'Save-Data': 'on' },
      });
      const srcsets = await page
        .locator('picture source[type="image/avif"]')
        .evaluateAll((sources) => sources.map((s) => s.getAttribute('srcset') ?? ''));
      expect(srcsets.length).toBeGreaterThan(0);
      for (const srcset of srcsets) expect(srcset).not.toMatch(/1024w/);
      expect(await page.locator('html').getAttribute('lang')).toBe('am');
      await close();
      expect(errors).toEqual([]);
    }
  });

  it('keeps Save-Data after the remembered language sends / to /am/ (docs/decisions/0100-save-data-and-page-weight.md)', async () => {
    // Chromium sends a header added by automation only on the first hop of a navigation: the redirect's
    // cookie carries the choice to /am/
    const { page, errors, close } = await open('/', {
      lang: 'am',
      viewport: PHONE,
      deviceScaleFactor: 3,
      extraHTTPHeaders: { 'Save-Data': 'on' },
    });
    expect(new URL(page.url()).pathname).toBe('/am/');
    const card = page.locator(`article.card:has(a[href="/am/product/${productId}"])`).first();
    const srcset = await card.locator('picture source[type="image/avif"]').getAttribute('srcset');
    expect(srcset?.split(', ').map((s) => s.split(' ')[1])).toEqual(['320w']);
    expect(await page.locator('section.hero-slider').getAttribute('data-paused')).toBe('true');
    // the cookie is the redirect's only: it is not readable by the page and does not outlive a moment
    const cookie = (await page.context().cookies()).find((c) => c.name === 'save-data');
    expect(cookie?.httpOnly).toBe(true);
    expect((cookie?.expires ?? 0) - Date.now() / 1000).toBeLessThanOrEqual(60);
    await close();
    expect(errors).toEqual([]);
  });

  it('the home cards show the photo with their sizes, and Save-Data stops the hero advancing', async () => {
    const usual = await open('/', { viewport: PHONE });
    // the newest product is on the home page's shelves
    const card = usual.page.locator(`article.card:has(a[href="/product/${productId}"])`).first();
    const cardSources = card.locator('picture source');
    expect(await cardSources.count()).toBe(2);
    expect(await cardSources.first().getAttribute('sizes')).toBe(
      '(max-width: 600px) 50vw, (max-width: 1200px) 33vw, 300px',
    );
    expect(await usual.page.locator('section.hero-slider').getAttribute('data-paused')).toBe('false');
    await usual.close();
    expect(usual.errors).toEqual([]);

    const saving = await open('/', { viewport: PHONE, extraHTTPHeaders: { 'Save-Data': 'on' } });
    const hero = saving.page.locator('section.hero-slider');
    expect(await hero.getAttribute('data-paused')).toBe('true');
    const first = saving.page.locator('.slide-1');
    expect(await first.isVisible()).toBe(true);
    // longer than the 6 s interval: the first slide is still the one shown
    await saving.page.waitForTimeout(6_800);
    expect(await first.isVisible()).toBe(true);
    expect(await saving.page.locator('.slide-2').isVisible()).toBe(false);
    await saving.close();
    expect(saving.errors).toEqual([]);
  }, 30_000);
});
