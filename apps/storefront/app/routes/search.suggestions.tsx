import { json, type LoaderFunctionArgs } from '@remix-run/node';
import { isLanguage, translate } from '@shop/i18n';
import { languageFromCookie } from '../language';
import { publicSettings } from '../products.server';
import {
  MAX_SUGGESTIONS,
  NO_SUGGESTIONS,
  suggestionQuery,
  toSuggestions,
  type SuggestionsAnswer,
} from '../search-suggestions';
import { apiFor } from '../session.server';

/**
 * JSON suggestions for the header search box (components/SearchBox.tsx): the API's predictive search
 * (`GET /api/products/suggestions`) as the box shows it. `lang` in the URL (the page's language) keeps
 * the browser's cached answers of one language apart from the other's; without it, the cookie's.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const q = suggestionQuery(url.searchParams.get('q'));
  if (!q) return json(NO_SUGGESTIONS);
  const param = url.searchParams.get('lang');
  const lang = isLanguage(param) ? param : languageFromCookie(request.headers.get('Cookie'));
  const [answer, settings] = await Promise.all([
    apiFor(request)
      .GET('/api/products/suggestions', { params: { query: { q, limit: MAX_SUGGESTIONS, lang } } })
      .then(
        (r) => r.data as SuggestionsAnswer | undefined,
        () => undefined,
      ),
    publicSettings(request),
  ]);
  const t = (key: string) => translate(lang, key);
  const suggestions = toSuggestions(answer, q, { lang, pricesIncludeTax: settings.pricesIncludeTax, t });
  // a failed call shows no suggestions ('view all results' still searches), and is asked again next time
  return json(suggestions, {
    headers: { 'Cache-Control': answer ? 'private, max-age=30' : 'no-store' },
  });
}
