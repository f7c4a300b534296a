import type { ShippingRates } from '@shop/shared';
import { publicSettings } from '../products.server';
import { publicSettingsFrom, shippingRatesOf } from '../shop-data';

/** Shipping prices from the public settings (ETB) in santim; the shop's defaults fill what is missing. */
export function shippingRatesFrom(answer: unknown): ShippingRates {
  return shippingRatesOf(publicSettingsFrom(answer));
}

export async function loadShippingRates(request: Request): Promise<ShippingRates> {
  return shippingRatesOf(await publicSettings(request));
}
