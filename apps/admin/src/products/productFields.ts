import { discountPercent, SUB_CATEGORIES } from '@shop/shared';

const blank = (v: unknown) => v === undefined || v === null || v === '';

/**
 * The compare-at price's refusal as the API answers it (COMPARE_AT_NOT_ABOVE_PRICE, docs/decisions/0082):
 * a compare-at price, when given, must be higher than the price. Undefined when there is nothing to say.
 */
export function compareAtError(
  compareAt: unknown,
  price: unknown,
): { message: string; args: { price: number } } | undefined {
  if (blank(compareAt) || blank(price)) return undefined;
  const c = Number(compareAt);
  const p = Number(price);
  if (!Number.isFinite(c) || !Number.isFinite(p) || c > p) return undefined;
  return { message: 'shop.errors.COMPARE_AT_NOT_ABOVE_PRICE', args: { price: p } };
}

/** The discount the storefront's badge shows for a price and a compare-at price (0: no badge). */
export function discountShown(price: unknown, compareAt: unknown): number {
  if (blank(price) || blank(compareAt) || compareAtError(compareAt, price)) return 0;
  return discountPercent(Number(price), Number(compareAt));
}

/** The sub-categories of a category, named in the page's language (all of them without a category). */
export function subCategoryChoices(category: unknown, lang: string): { id: string; name: string }[] {
  return SUB_CATEGORIES.filter((s) => !category || s.category === category).map((s) => ({
    id: s.slug,
    name: lang === 'am' ? s.name.am : s.name.en,
  }));
}

/** SUB_CATEGORY_NOT_IN_CATEGORY before the API says it: a sub-category of another category. */
export function subCategoryError(subCategory: unknown, category: unknown): string | undefined {
  if (blank(subCategory) || blank(category)) return undefined;
  const sub = SUB_CATEGORIES.find((s) => s.slug === subCategory);
  return sub && sub.category !== category ? 'shop.errors.SUB_CATEGORY_NOT_IN_CATEGORY' : undefined;
}
