import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { storefrontDictionary } from '@shop/i18n';
import { loader } from './routes/i18n.$lang';
import { textsCoding, textsOf, textsUrl } from './texts.server';

const ask = (path: string, acceptEncoding = 'gzip, deflate, br') =>
  loader({
    params: { lang: path.split('/')[2].split('?')[0] },
    request: new Request(`http://shop.test${path}`, { headers: { 'Accept-Encoding': acceptEncoding } }),
    context: {},
  }) as Promise<Response>;

describe("the pages' texts (decision 0104)", () => {
  it('are versioned by their content, one version per language', () => {
    expect(textsUrl('en')).toMatch(/^\/i18n\/en\?v=[0-9a-f]{12}$/);
    expect(textsUrl('am')).toMatch(/^\/i18n\/am\?v=[0-9a-f]{12}$/);
    expect(textsOf('en').version).not.toBe(textsOf('am').version);
    expect(textsOf('am').dictionary).toEqual(storefrontDictionary('am'));
  });

  it('are kept a year at their version, five minutes otherwise, and compressed as the browser accepts', async () => {
    const current = await ask(textsUrl('am'));
    expect(current.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(current.headers.get('content-encoding')).toBe('br');
    expect(current.headers.get('vary')).toBe('Accept-Encoding');
    const body = Buffer.from(await current.arrayBuffer());
    expect(JSON.parse(brotliDecompressSync(body).toString('utf8'))).toEqual(storefrontDictionary('am'));

    const old = await ask('/i18n/am?v=000000000000', 'gzip');
    expect(old.headers.get('cache-control')).toBe('public, max-age=300');
    expect(old.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse(gunzipSync(Buffer.from(await old.arrayBuffer())).toString('utf8'))).toEqual(
      storefrontDictionary('am'),
    );

    const plain = await ask('/i18n/en', 'br;q=0, gzip;q=0');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.json()).toEqual(storefrontDictionary('en'));
  });

  it('answer 404 for a language the shop does not have', async () => {
    await expect(ask('/i18n/fr')).rejects.toMatchObject({ status: 404 });
  });

  it('negotiate the coding', () => {
    expect(textsCoding('gzip, deflate, br')).toBe('br');
    expect(textsCoding('gzip')).toBe('gzip');
    expect(textsCoding('br;q=0, gzip')).toBe('gzip');
    expect(textsCoding('BR; q=0.5')).toBe('br');
    expect(textsCoding(null)).toBe('identity');
    expect(textsCoding('deflate')).toBe('identity');
  });
});
