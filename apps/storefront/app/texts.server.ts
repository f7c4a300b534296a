import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { storefrontDictionary, type Dictionary, type Language } from '@shop/i18n';

/**
 * The storefront's texts of one language (docs/decisions/0104-texts-out-of-the-page.md): the server
 * renders with them, and the browser fetches them once from `/i18n/<lang>?v=<version>` (immutable,
 * the version is a digest of the texts) instead of receiving them inside every page.
 */
export interface Texts {
  dictionary: Dictionary;
  version: string;
  /** The JSON, and compressed once at the best settings (every shopper downloads it, once). */
  bytes: { identity: Buffer; br: Buffer; gzip: Buffer };
}

const texts = new Map<Language, Texts>();

export function textsOf(lang: Language): Texts {
  let kept = texts.get(lang);
  if (!kept) {
    const dictionary = storefrontDictionary(lang);
    const identity = Buffer.from(JSON.stringify(dictionary));
    const version = createHash('sha256').update(identity).digest('hex').slice(0, 12);
    const br = brotliCompressSync(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    });
    kept = { dictionary, version, bytes: { identity, br, gzip: gzipSync(identity, { level: 9 }) } };
    texts.set(lang, kept);
  }
  return kept;
}

/** The address the browser fetches a language's texts from (kept a year: a new version is a new address). */
export function textsUrl(lang: Language): string {
  return `/i18n/${lang}?v=${textsOf(lang).version}`;
}

/** The coding to answer in: brotli, then gzip, then none (a coding refused with `q=0` is not used). */
export function textsCoding(acceptEncoding: string | null): 'br' | 'gzip' | 'identity' {
  const accepted = (name: string) =>
    (acceptEncoding ?? '')
      .toLowerCase()
      .split(',')
      .some((part) => {
        const [coding, ...params] = part.trim().split(';');
        return coding.trim() === name && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p));
      });
  return accepted('br') ? 'br' : accepted('gzip') ? 'gzip' : 'identity';
}
