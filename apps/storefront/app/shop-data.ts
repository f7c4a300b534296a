import { DEFAULT_SHIPPING_RATES, toBirr } from '@shop/shared';

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
}

/** The public part of the settings the storefront reads (shipping amounts in ETB). */
export interface PublicSettings {
  siteName?: string;
  maintenanceMode: boolean;
  shipping: { standard: number; express: number; pickup: number; freeShippingThreshold: number };
}

export const DEFAULT_PUBLIC_SETTINGS: PublicSettings = {
  maintenanceMode: false,
  shipping: {
    standard: toBirr(DEFAULT_SHIPPING_RATES.standard),
    express: toBirr(DEFAULT_SHIPPING_RATES.express),
    pickup: toBirr(DEFAULT_SHIPPING_RATES.pickup),
    freeShippingThreshold: toBirr(DEFAULT_SHIPPING_RATES.freeStandardOver),
  },
};
