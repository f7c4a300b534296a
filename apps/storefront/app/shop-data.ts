import type { DateTexts } from './dates';
import type { components } from '@shop/api-client';
import {
  DEFAULT_SHIPPING_RATES,
  findEthiopianRegion,
  toBirr,
  toSantim,
  type CashOnDeliverySettings,
  type ShippingRates,
} from '@shop/shared';

/** A review as the product page and the testimonials show it. */
export interface ReviewView {
  _id: string;
  user: { _id?: string; name: string };
  product?: { _id: string; name: string; nameAm?: string };
  rating: number;
  title?: string;
  comment: string;
  verified?: boolean;
  createdAt: string;
  /** `createdAt` formatted by the server in the page's language (the product page) */
  dateTexts?: DateTexts;
}

/** The public part of the settings the storefront reads (shipping amounts in ETB). */
export interface PublicSettings {
  siteName?: string;
  maintenanceMode: boolean;
  shipping: { standard: number; express: number; pickup: number; freeShippingThreshold: number };
  /** Shelf prices include the 15% VAT (default false: VAT is added at checkout). */
  pricesIncludeTax: boolean;
  /** Where and up to which total pay on delivery is offered (off when the API does not say). */
  cashOnDelivery: CashOnDeliverySettings;
}

/** Pay on delivery is offered only where the API says it accepts it: nothing when it does not say. */
export const NO_CASH_ON_DELIVERY: CashOnDeliverySettings = { enabled: false, regions: [], maxOrderTotal: 0 };

export const DEFAULT_PUBLIC_SETTINGS: PublicSettings = {
  maintenanceMode: false,
  pricesIncludeTax: false,
  cashOnDelivery: NO_CASH_ON_DELIVERY,
  shipping: {
    standard: toBirr(DEFAULT_SHIPPING_RATES.standard),
    express: toBirr(DEFAULT_SHIPPING_RATES.express),
    pickup: toBirr(DEFAULT_SHIPPING_RATES.pickup),
    freeShippingThreshold: toBirr(DEFAULT_SHIPPING_RATES.freeStandardOver),
  },
};

type Schemas = components['schemas'];
/** GET /api/settings/public as generated from openapi.yaml, read leniently: what is missing takes the defaults. */
type PublicSettingsAnswer = {
  settings?: Partial<Omit<Schemas['PublicSettingsDto'], 'shipping'>> & {
    shipping?: Partial<Schemas['ShippingOptionDto']>[];
  };
};

const amount = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;

/** The answer of `GET /api/settings/public` read once for every page: the shop's defaults fill what is missing. */
export function publicSettingsFrom(answer: PublicSettingsAnswer | undefined): PublicSettings {
  const s = answer?.settings;
  if (!s) return DEFAULT_PUBLIC_SETTINGS;
  const d = DEFAULT_PUBLIC_SETTINGS.shipping;
  const option = (method: 'standard' | 'express' | 'pickup') => s.shipping?.find((o) => o.method === method);
  return {
    siteName: s.siteName,
    maintenanceMode: s.maintenanceMode === true,
    pricesIncludeTax: s.pricesIncludeTax === true,
    cashOnDelivery: cashOnDeliveryFrom((s as { cashOnDelivery?: unknown }).cashOnDelivery),
    shipping: {
      standard: amount(option('standard')?.price) ?? d.standard,
      express: amount(option('express')?.price) ?? d.express,
      pickup: amount(option('pickup')?.price) ?? d.pickup,
      freeShippingThreshold:
        amount(option('standard')?.freeOver) ?? amount(s.freeShippingThreshold) ?? d.freeShippingThreshold,
    },
  };
}

/**
 * The public settings' `cashOnDelivery`, read strictly: enabled only when it says so, only the regions
 * Ethiopia has (by their English names), a total cap of at least 0; anything else offers nothing.
 */
export function cashOnDeliveryFrom(raw: unknown): CashOnDeliverySettings {
  if (!raw || typeof raw !== 'object') return NO_CASH_ON_DELIVERY;
  const c = raw as { enabled?: unknown; regions?: unknown; maxOrderTotal?: unknown };
  const max = amount(c.maxOrderTotal);
  if (c.enabled !== true || max === undefined || !Array.isArray(c.regions)) return NO_CASH_ON_DELIVERY;
  const regions = c.regions
    .map((r) => (typeof r === 'string' ? findEthiopianRegion(r)?.en : undefined))
    .filter((r): r is string => Boolean(r));
  return { enabled: true, regions: [...new Set(regions)], maxOrderTotal: max };
}

/** The shipping rates of the public settings in santim, as `priceOrder` takes them. */
export function shippingRatesOf(settings: PublicSettings): ShippingRates {
  const { standard, express, pickup, freeShippingThreshold } = settings.shipping;
  return {
    standard: toSantim(standard),
    express: toSantim(express),
    pickup: toSantim(pickup),
    freeStandardOver: toSantim(freeShippingThreshold),
  };
}
