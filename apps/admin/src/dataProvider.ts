import simpleRestProvider from 'ra-data-simple-rest';
import { fetchUtils, type DataProvider } from 'react-admin';
import { translatedHttpError, type Translate } from './apiErrors';
import { apiUrl } from './config';
import { PRODUCT_FIELDS } from './contractFields';
import { pickFields, withSession } from './shopApi';
import { withRequestId } from './requestId';

/** A product record as the API accepts it: the form's fields of the contract (the record carries read-only ones too). */
export function productPayload(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = pickFields(data, PRODUCT_FIELDS, [undefined, null, '']);
  // an Amharic text cleared in the form is saved empty (the storefront then falls back to English)
  for (const f of ['nameAm', 'descriptionAm'] as const) if (data[f] === '') out[f] = '';
  // a sub-category or size cleared in the form is sent as null: left out, the API keeps it
  for (const f of ['subCategory', 'size'] as const)
    if (f in data && (data[f] == null || data[f] === '')) out[f] = null;
  for (const list of ['images', 'ingredients', 'ingredientsAm', 'benefits', 'benefitsAm'])
    if (Array.isArray(out[list]))
      out[list] = (out[list] as unknown[]).filter((u) => typeof u === 'string' && u.trim());
  for (const f of ['price', 'originalPrice', 'stock'] as const) if (f in out) out[f] = Number(out[f]);
  return out;
}

/**
 * ra-data-simple-rest over /api/admin, sending products only their writable fields. Every call sends
 * the httpOnly session cookie (no token in script reach); a refusal comes back worded by `translate`
 * in the chosen language (the API's code, else its English message) with react-admin form errors.
 */
export function createDataProvider(translate: Translate): DataProvider {
  const httpClient: typeof fetchUtils.fetchJson = (url, options = {}) =>
    fetchUtils.fetchJson(url, withSession(withRequestId(options))).catch((error: unknown) => {
      throw translatedHttpError(error, translate);
    });
  const rest = simpleRestProvider(`${apiUrl}/admin`, httpClient);
  return {
    ...rest,
    create: (resource, params) =>
      rest.create(
        resource,
        resource === 'products' ? { ...params, data: productPayload(params.data) } : params,
      ),
    update: (resource, params) =>
      rest.update(
        resource,
        resource === 'products' ? { ...params, data: productPayload(params.data) } : params,
      ),
  };
}
