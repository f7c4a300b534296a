import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import {
  DEFAULT_CASH_ON_DELIVERY,
  DEFAULT_SHOP_TIMEZONE,
  DEFAULT_SHIPPING_RATES,
  toSantim,
  SETTINGS_CURRENCIES,
  SETTINGS_LANGUAGES,
  SETTINGS_TIMEZONES,
} from '@shop/shared';

export { SETTINGS_CURRENCIES, SETTINGS_LANGUAGES, SETTINGS_TIMEZONES };

/** Pay on delivery as stored: money in santim. */
export interface StoredCashOnDelivery {
  enabled: boolean;
  regions: string[];
  maxOrderTotalSantim: number;
}

/** The one settings document has this fixed key, so reads and upserts always meet the same record. */
export const SETTINGS_KEY = 'site';

/** Site settings (docs/product.md §3), the shipping settings included; money in santim. */
@Schema({ timestamps: true, collection: 'settings' })
export class Settings {
  @Prop({ required: true, unique: true, default: SETTINGS_KEY }) key!: string;
  @Prop({ default: 'Addis Natural Beauty', trim: true, maxlength: 100 }) siteName!: string;
  @Prop({ default: 'Natural beauty and skincare products, delivered across Ethiopia.', maxlength: 500 })
  siteDescription!: string;
  @Prop({ default: 'admin@beauty.et', trim: true, lowercase: true, maxlength: 254 }) adminEmail!: string;
  @Prop({ enum: SETTINGS_CURRENCIES, default: 'ETB' }) currency!: string;
  @Prop({ enum: SETTINGS_LANGUAGES, default: 'en' }) language!: string;
  @Prop({ enum: SETTINGS_TIMEZONES, default: DEFAULT_SHOP_TIMEZONE }) timezone!: string;
  @Prop({ default: true }) emailNotifications!: boolean;
  @Prop({ default: true }) orderNotifications!: boolean;
  @Prop({ default: true }) lowStockAlerts!: boolean;
  @Prop({ default: false }) maintenanceMode!: boolean;
  /** Shelf prices include the 15% VAT (shown as "of which VAT", not added); false: VAT added at checkout. */
  @Prop({ default: false }) pricesIncludeTax!: boolean;
  @Prop({ min: 0, default: DEFAULT_SHIPPING_RATES.standard }) standardShippingSantim!: number;
  @Prop({ min: 0, default: DEFAULT_SHIPPING_RATES.express }) expressShippingSantim!: number;
  @Prop({ min: 0, default: DEFAULT_SHIPPING_RATES.pickup }) pickupShippingSantim!: number;
  @Prop({ min: 0, default: DEFAULT_SHIPPING_RATES.freeStandardOver }) freeShippingThresholdSantim!: number;
  /**
   * Where pay on delivery is offered (docs/decisions/0061-pay-on-delivery.md): on or off, the regions
   * (canonical English names) and the largest order total, in santim.
   */
  @Prop({
    type: { enabled: Boolean, regions: [String], maxOrderTotalSantim: Number },
    _id: false,
    default: () => ({
      enabled: DEFAULT_CASH_ON_DELIVERY.enabled,
      regions: [...DEFAULT_CASH_ON_DELIVERY.regions],
      maxOrderTotalSantim: toSantim(DEFAULT_CASH_ON_DELIVERY.maxOrderTotal),
    }),
  })
  cashOnDelivery!: StoredCashOnDelivery;
  updatedAt?: Date;
}

export const SettingsSchema = SchemaFactory.createForClass(Settings);
