import { useShop, type Translate } from '../shop-context';

/** A value of the catalogue's counts (`GET /api/products?facets=category,brand`). */
export interface FacetCount {
  value: string;
  count: number;
}

/** Brands shown before 'More brands' (the chosen ones always among them). */
export const BRANDS_SHOWN = 8;

/** A category's option text: its name and, when the API counted, its products among the other filters. */
export function categoryLabel(
  t: Translate,
  name: string,
  slug: string,
  counts: readonly FacetCount[] | undefined,
): string {
  const count = counts?.find((c) => c.value === slug)?.count;
  return count === undefined ? name : t('catalogue.withCount', { name, count });
}

/** The chosen brands first (in the API's order), then the others: the first BRANDS_SHOWN shown, the rest folded. */
export function splitBrands(
  brands: readonly FacetCount[],
  chosen: readonly string[],
): { shown: FacetCount[]; more: FacetCount[] } {
  const isChosen = (b: FacetCount) => chosen.some((c) => c.toLowerCase() === b.value.toLowerCase());
  const ordered = [...brands.filter(isChosen), ...brands.filter((b) => !isChosen(b))];
  const cut = Math.max(BRANDS_SHOWN, brands.filter(isChosen).length);
  return { shown: ordered.slice(0, cut), more: ordered.slice(cut) };
}

function BrandChoice({ brand, checked }: { brand: FacetCount; checked: boolean }) {
  const { t } = useShop();
  return (
    <label className="filter checkbox facet-choice">
      <input type="checkbox" name="brand" value={brand.value} defaultChecked={checked} />
      <span>{t('catalogue.withCount', { name: brand.value, count: brand.count })}</span>
    </label>
  );
}

/**
 * The filter drawer's brands: checkboxes named `brand` (a plain GET form sends each chosen one, so it
 * works without JavaScript), each with its products among the other filters; past BRANDS_SHOWN, the
 * rest behind a native 'More brands' disclosure. Nothing when the API sent no brand counts.
 */
export function BrandFacet({
  brands,
  chosen,
}: {
  brands: readonly FacetCount[] | undefined;
  chosen: readonly string[];
}) {
  const { t } = useShop();
  if (!brands?.length) return null;
  const { shown, more } = splitBrands(brands, chosen);
  const isChosen = (b: FacetCount) => chosen.some((c) => c.toLowerCase() === b.value.toLowerCase());
  return (
    <fieldset className="filter facet" data-testid="brand-facet">
      <legend>{t('catalogue.brand')}</legend>
      {shown.map((b) => (
        <BrandChoice key={b.value} brand={b} checked={isChosen(b)} />
      ))}
      {more.length > 0 && (
        <details className="facet-more">
          <summary>{t('catalogue.moreBrands', { count: more.length })}</summary>
          {more.map((b) => (
            <BrandChoice key={b.value} brand={b} checked={false} />
          ))}
        </details>
      )}
    </fieldset>
  );
}
