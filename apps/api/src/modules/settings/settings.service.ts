import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { ShippingRates } from '@shop/shared';
import { Model } from 'mongoose';
import { Settings, SETTINGS_KEY } from './schemas/settings.schema';

/** The single settings document; reading it before any save gives the defaults (DECISIONS.md). */
@Injectable()
export class SettingsService {
  constructor(@InjectModel(Settings.name) private readonly settings: Model<Settings>) {}

  /** The stored settings merged over the defaults, without writing anything. */
  async get(): Promise<Settings> {
    const stored = await this.settings.findOne({ key: SETTINGS_KEY }).lean().exec();
    const defaults = new this.settings({ key: SETTINGS_KEY }).toObject() as Settings & { _id?: unknown };
    delete defaults._id;
    return { ...defaults, ...(stored ?? {}) } as Settings;
  }

  /** Shipping prices and the free-standard-shipping threshold used to price orders. */
  async shippingRates(): Promise<ShippingRates> {
    const s = await this.get();
    return {
      standard: s.standardShippingSantim,
      express: s.expressShippingSantim,
      pickup: s.pickupShippingSantim,
      freeStandardOver: s.freeShippingThresholdSantim,
    };
  }
}
