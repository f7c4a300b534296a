import { DEFAULT_SHIPPING_RATES, toSantim, type ShippingRates } from '@shop/shared';
import { api } from './api.server';

type Loose = Record<string, unknown>;
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Reads shipping prices (ETB) from the public settings; the shop's defaults fill what is missing. */
export function shippingRatesFrom(answer: unknown): ShippingRates {
  const root = (answer ?? {}) as Loose;
  const s = ((root.settings as Loose) ?? root) as Loose;
  const shipping = ((s.shipping as Loose) ?? (s.shippingRates as Loose) ?? s) as Loose;
  const pick = (etb: unknown, santim: unknown, fallback: number) =>
    num(santim) ?? (num(etb) !== undefined ? toSantim(num(etb)!) : fallback);
  return {
    standard: pick(shipping.standard ?? s.standardShipping, shipping.standardSantim, DEFAULT_SHIPPING_RATES.standard),
    express: pick(shipping.express ?? s.expressShipping, shipping.expressSantim, DEFAULT_SHIPPING_RATES.express),
    pickup: pick(shipping.pickup ?? s.pickupShipping, shipping.pickupSantim, DEFAULT_SHIPPING_RATES.pickup),
    freeStandardOver: pick(
      shipping.freeStandardOver ?? shipping.freeShippingThreshold ?? s.freeShippingThreshold,
      shipping.freeStandardOverSantim,
      DEFAULT_SHIPPING_RATES.freeStandardOver,
    ),
  };
}

export async function loadShippingRates(request: Request): Promise<ShippingRates> {
  const result = await api<unknown>(request, 'GET', '/api/settings/public');
  return shippingRatesFrom(result.ok ? result.data : undefined);
}
