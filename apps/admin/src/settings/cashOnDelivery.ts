import { ETHIOPIAN_REGIONS, findEthiopianRegion, type CashOnDeliverySettings } from '@shop/shared';

/** The largest amount the API accepts for a setting, in ETB. */
export const MAX_COD_TOTAL_ETB = 1_000_000;

/** Pay on delivery as the form holds it: the total as typed, so a cleared field is not silently 0. */
export interface CodForm {
  enabled: boolean;
  regions: string[];
  maxOrderTotal: string;
}

export type CodErrors = Partial<Record<'regions' | 'maxOrderTotal', string>>;

export const codForm = (s: CashOnDeliverySettings): CodForm => ({
  enabled: s.enabled,
  regions: [...s.regions],
  maxOrderTotal: String(s.maxOrderTotal),
});

/** The total as an amount in ETB (0 to MAX_COD_TOTAL_ETB, at most two decimals), else undefined. */
export function parseCodTotal(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d+(\.\d{1,2})?$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return value <= MAX_COD_TOTAL_ETB ? value : undefined;
}

/**
 * What is wrong with the form, as i18n keys under each field: a total that is not an amount from 0 to
 * the API's maximum; no region while it is switched on (it would be offered nowhere: switch it off).
 */
export function codErrors(form: CodForm): CodErrors {
  const errors: CodErrors = {};
  if (parseCodTotal(form.maxOrderTotal) === undefined)
    errors.maxOrderTotal = 'shop.admin.settings.cod.maxInvalid';
  if (form.enabled && form.regions.length === 0) errors.regions = 'shop.admin.settings.cod.regionsRequired';
  return errors;
}

/** The form as the API takes it (regions in the canonical order of ETHIOPIAN_REGIONS); call after codErrors found nothing. */
export function codPayload(form: CodForm): CashOnDeliverySettings & { regions: string[] } {
  const chosen = new Set(form.regions.map((r) => findEthiopianRegion(r)?.en ?? r));
  return {
    enabled: form.enabled,
    regions: ETHIOPIAN_REGIONS.map((r) => r.en).filter((r) => chosen.has(r)),
    maxOrderTotal: parseCodTotal(form.maxOrderTotal) ?? 0,
  };
}

/**
 * The API's field errors (apiFieldErrors: `cashOnDelivery.regions.0`, `cashOnDelivery.maxOrderTotal`)
 * under the form's own fields.
 */
export function codServerErrors(fields: Record<string, string> | undefined): CodErrors {
  const out: CodErrors = {};
  for (const [field, text] of Object.entries(fields ?? {})) {
    const [root, name] = field.split('.');
    if (root !== 'cashOnDelivery') continue;
    if (name === 'regions' || name === 'maxOrderTotal') out[name] ??= text;
  }
  return out;
}
