import type { components } from '@shop/api-client';

type Schemas = components['schemas'];

/** What the back office sends of each field of a request body in the contract: `true` sends it, `false` never does. */
export type FieldChoice<T> = { readonly [K in keyof Required<T>]: boolean };

/**
 * The fields of a request body (a schema generated from openapi.yaml) that a form sends. The choice
 * names every field of the contract's schema and nothing else, so a field added to or removed from
 * openapi.yaml fails type-checking here until the back office decides about it.
 */
export function contractFields<T>(choice: FieldChoice<T>): (keyof T & string)[] {
  return (Object.keys(choice) as (keyof T & string)[]).filter((k) => choice[k]);
}

/** POST/PUT /api/admin/products (ProductInputDto): the fields the product form edits. */
export const PRODUCT_FIELDS = contractFields<Schemas['ProductInputDto']>({
  name: true,
  nameAm: true,
  sku: false,
  brand: true,
  description: true,
  descriptionAm: true,
  richDescription: false,
  ingredients: true,
  keyIngredients: false,
  benefits: true,
  ingredientsAm: true,
  benefitsAm: true,
  price: true,
  originalPrice: true,
  currency: false,
  images: true,
  image: false,
  stock: true,
  countInStock: false,
  lowStockThreshold: false,
  restockThreshold: false,
  promotionId: false,
  category: true,
  subCategory: true,
  size: true,
  skinTypes: false,
  active: true,
  isFeatured: true,
  // in the API's shape from the product form's transform (products/productFields.ts variantsPayload)
  options: true,
  variants: true,
});

/** PUT /api/admin/settings (SettingsInputDto): the settings form edits every field. */
export const SETTINGS_FIELDS = contractFields<Schemas['SettingsInputDto']>({
  siteName: true,
  siteDescription: true,
  adminEmail: true,
  currency: true,
  language: true,
  timezone: true,
  emailNotifications: true,
  orderNotifications: true,
  lowStockAlerts: true,
  maintenanceMode: true,
  pricesIncludeTax: true,
  standardShipping: true,
  expressShipping: true,
  pickupShipping: true,
  freeShippingThreshold: true,
  cashOnDelivery: true,
});
