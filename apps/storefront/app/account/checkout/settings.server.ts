import type { ShippingRates } from '@shop/shared';
import { publicSettings } from '../../products.server';
import { publicSettingsFrom, shippingRatesOf } from '../../shop-data';

/** Shipping prices from the public settings (ETB) in santim; the shop's defaults fill what is missing. */
export function shippingRatesFrom(answer: Parameters<typeof publicSettingsFrom>[0]): ShippingRates {
  return shippingRatesOf(publicSettingsFrom(answer));
}

/** The rates and whether shelf prices include VAT, as the cart and checkout price an order. */
export async function loadPricing(
  request: Request,
): Promise<{ rates: ShippingRates; pricesIncludeTax: boolean }> {
  const settings = await publicSettings(request);
  return { rates: shippingRatesOf(settings), pricesIncludeTax: settings.pricesIncludeTax };
}
