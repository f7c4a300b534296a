import type { CashOnDeliverySettings, ShippingRates } from '@shop/shared';
import { publicSettings } from '../../products.server';
import { publicSettingsFrom, shippingRatesOf } from '../../shop-data';

/** Shipping prices from the public settings (ETB) in santim; the shop's defaults fill what is missing. */
export function shippingRatesFrom(answer: Parameters<typeof publicSettingsFrom>[0]): ShippingRates {
  return shippingRatesOf(publicSettingsFrom(answer));
}

/**
 * The rates and whether shelf prices include VAT, as the cart and checkout price an order, and where
 * pay on delivery is offered.
 */
export async function loadPricing(request: Request): Promise<{
  rates: ShippingRates;
  pricesIncludeTax: boolean;
  cashOnDelivery: CashOnDeliverySettings;
}> {
  const settings = await publicSettings(request);
  return {
    rates: shippingRatesOf(settings),
    pricesIncludeTax: settings.pricesIncludeTax,
    cashOnDelivery: settings.cashOnDelivery,
  };
}
