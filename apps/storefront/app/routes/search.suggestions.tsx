import { json, type LoaderFunctionArgs } from '@remix-run/node';
import { translate } from '@shop/i18n';
import { languageFromCookie } from '../language';
import { shelfPriceText } from '../price-words';
import { listProducts, publicSettings } from '../products.server';

export const MAX_SUGGESTIONS = 5;

export interface Suggestion {
  id: string;
  name: string;
  brand: string;
  /** The price with the VAT words of the shop's setting, e.g. 'ETB 4,350.00 + VAT'. */
  price: string;
}

/** JSON suggestions for the header search box: up to 5 products matching the text. */
export async function loader({ request }: LoaderFunctionArgs) {
  const q = (new URL(request.url).searchParams.get('q') ?? '').trim().slice(0, 100);
  if (q.length < 2) return json({ suggestions: [] });
  const lang = languageFromCookie(request.headers.get('Cookie'));
  const [{ data }, settings] = await Promise.all([
    listProducts(request, { search: q, limit: MAX_SUGGESTIONS, page: 1 }),
    publicSettings(request),
  ]);
  const t = (key: string) => translate(lang, key);
  const suggestions: Suggestion[] = (data?.products ?? []).slice(0, MAX_SUGGESTIONS).map((p) => ({
    id: p._id,
    name: lang === 'am' && p.nameAm ? p.nameAm : p.name,
    brand: p.brand,
    price: shelfPriceText(p.price, lang, settings.pricesIncludeTax, t),
  }));
  return json({ suggestions }, { headers: { 'Cache-Control': 'private, max-age=30' } });
}
