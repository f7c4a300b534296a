import { json, type LoaderFunctionArgs } from '@remix-run/node';
import { languageFromCookie } from '../language';
import { listProducts } from '../products.server';

export const MAX_SUGGESTIONS = 5;

export interface Suggestion {
  id: string;
  name: string;
  brand: string;
}

/** JSON suggestions for the header search box: up to 5 products matching the text. */
export async function loader({ request }: LoaderFunctionArgs) {
  const q = (new URL(request.url).searchParams.get('q') ?? '').trim().slice(0, 100);
  if (q.length < 2) return json({ suggestions: [] });
  const lang = languageFromCookie(request.headers.get('Cookie'));
  const { data } = await listProducts(request, { search: q, limit: MAX_SUGGESTIONS, page: 1 });
  const suggestions: Suggestion[] = (data?.products ?? []).slice(0, MAX_SUGGESTIONS).map((p) => ({
    id: p._id,
    name: lang === 'am' && p.nameAm ? p.nameAm : p.name,
    brand: p.brand,
  }));
  return json({ suggestions }, { headers: { 'Cache-Control': 'private, max-age=30' } });
}
