import { DEFAULT_SHIPPING_RATES, toSantim, type ShippingRates } from '@shop/shared';
import { apiFor } from '../session.server';
import { settle } from './api.server';

interface PublicSettings {
  settings?: {
    shipping?: { method: string; price: number; freeOver?: number }[];
    freeShippingThreshold?: number;
  };
}

const etb = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? toSantim(value) : undefined;

/** Shipping prices from the public settings (ETB) in santim; the shop's defaults fill what is missing. */
export function shippingRatesFrom(answer: unknown): ShippingRates {
  const settings = (answer as PublicSettings | undefined)?.settings ?? {};
  const option = (method: keyof Omit<ShippingRates, 'freeStandardOver'>) => settings.shipping?.find((o) => o.method === method);
  const standard = option('standard');
  return {
    standard: etb(standard?.price) ?? DEFAULT_SHIPPING_RATES.standard,
    express: etb(option('express')?.price) ?? DEFAULT_SHIPPING_RATES.express,
    pickup: etb(option('pickup')?.price) ?? DEFAULT_SHIPPING_RATES.pickup,
    freeStandardOver: etb(standard?.freeOver) ?? etb(settings.freeShippingThreshold) ?? DEFAULT_SHIPPING_RATES.freeStandardOver,
  };
}

export async function loadShippingRates(request: Request): Promise<ShippingRates> {
  const result = await settle<PublicSettings>(apiFor(request).GET('/api/settings/public'));
  if (!result.ok) console.error('Failed to load public settings; default shipping rates shown', result.status);
  return shippingRatesFrom(result.ok ? result.data : undefined);
}
