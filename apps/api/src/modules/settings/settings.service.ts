import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  ETHIOPIAN_REGIONS,
  TAX_PERCENT,
  toBirr,
  toSantim,
  type CashOnDeliverySettings,
  type ShippingRates,
} from '@shop/shared';
import { Model } from 'mongoose';
import { Changes } from '../../common/changes';
import { isCleanText } from '../../common/validation';
import type { AuthUser } from '../../common/auth/auth-user';
import { AuditService } from '../audit/audit.service';
import type { SettingsInputDto } from './dto/settings.dto';
import { InvalidDataError } from '../../common/errors/domain-error';
import {
  Settings,
  SETTINGS_CURRENCIES,
  SETTINGS_KEY,
  SETTINGS_LANGUAGES,
  SETTINGS_TIMEZONES,
  type StoredCashOnDelivery,
} from './schemas/settings.schema';
import { READ_SETTINGS_EACH_TIME, SETTINGS_READS, type SettingsReads } from './settings-reads';

const EDITABLE = [
  'siteName',
  'siteDescription',
  'adminEmail',
  'currency',
  'language',
  'timezone',
  'emailNotifications',
  'orderNotifications',
  'lowStockAlerts',
  'maintenanceMode',
  'pricesIncludeTax',
] as const;
const SHIPPING_FIELDS = {
  standardShipping: 'standardShippingSantim',
  expressShipping: 'expressShippingSantim',
  pickupShipping: 'pickupShippingSantim',
  freeShippingThreshold: 'freeShippingThresholdSantim',
} as const;

/** Delivery times of the Shipping page (docs/product.md §9). */
const DELIVERY = {
  standard: { minDays: 3, maxDays: 5, deliveryTime: '3-5 business days' },
  express: { minDays: 1, maxDays: 2, deliveryTime: '1-2 business days' },
  pickup: { minDays: 0, maxDays: 0, deliveryTime: 'Same day' },
} as const;

const CHOICES: Partial<Record<keyof Settings, readonly string[]>> = {
  currency: SETTINGS_CURRENCIES,
  language: SETTINGS_LANGUAGES,
  timezone: SETTINGS_TIMEZONES,
};
const MAX_SETTINGS_SANTIM = 100_000_000;

/**
 * Whether a settings value is one the shop can run on: the type of its default, one of its choices,
 * a santim amount in range, clean text. Used on every read (a bad stored value falls back to its
 * default, so no stored document can break the dashboard or checkout) and on the whole next state
 * before a save (so none is ever stored).
 */
function isSaneSetting(field: string, value: unknown, fallback: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (field === 'cashOnDelivery') return isSaneCashOnDelivery(value);
  if (fallback === undefined || fallback === null) return true; // key, timestamps, _id
  if (typeof value !== typeof fallback) return false;
  const choices = CHOICES[field as keyof Settings];
  if (choices) return choices.includes(value as string);
  if (field.endsWith('Santim'))
    return Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= MAX_SETTINGS_SANTIM;
  if (typeof value === 'string') return isCleanText(value) && value.length <= 500;
  return true;
}

const REGION_NAMES = new Set(ETHIOPIAN_REGIONS.map((r) => r.en));

/** Pay on delivery's stored shape: a switch, known regions (each once), a santim amount in range. */
function isSaneCashOnDelivery(value: unknown): boolean {
  if (!value || typeof value !== 'object') return false;
  const v = value as Partial<StoredCashOnDelivery>;
  return (
    typeof v.enabled === 'boolean' &&
    Array.isArray(v.regions) &&
    v.regions.every((r) => typeof r === 'string' && REGION_NAMES.has(r)) &&
    new Set(v.regions).size === v.regions.length &&
    Number.isSafeInteger(v.maxOrderTotalSantim) &&
    (v.maxOrderTotalSantim as number) >= 0 &&
    (v.maxOrderTotalSantim as number) <= MAX_SETTINGS_SANTIM
  );
}

/** Pay on delivery's settings as libs/shared `codAllowed` and the API's answers take them (ETB). */
export function cashOnDeliveryOf(s: Settings): CashOnDeliverySettings & { regions: string[] } {
  const c = s.cashOnDelivery;
  return { enabled: c.enabled, regions: [...c.regions], maxOrderTotal: toBirr(c.maxOrderTotalSantim) };
}

function ratesOf(s: Settings): ShippingRates {
  return {
    standard: s.standardShippingSantim,
    express: s.expressShippingSantim,
    pickup: s.pickupShippingSantim,
    freeStandardOver: s.freeShippingThresholdSantim,
  };
}

/** What pricing an order needs, from settings already read (`SettingsService.get`). */
export function checkoutTermsOf(settings: Settings): { rates: ShippingRates; pricesIncludeTax: boolean } {
  return { rates: ratesOf(settings), pricesIncludeTax: settings.pricesIncludeTax === true };
}

/** The site settings as other modules read them (never the schema). */
export type SiteSettings = Settings;

/** The single settings document; read before any save, it gives the defaults (docs/product.md §3, §9). */
@Injectable()
export class SettingsService {
  /** The schema defaults, built once: what a read answers before any save. */
  private readonly defaults: Settings;

  constructor(
    @InjectModel(Settings.name) private readonly settings: Model<Settings>,
    private readonly audit: AuditService,
    private readonly changes: Changes,
    @Optional() @Inject(SETTINGS_READS) private readonly reads: SettingsReads = READ_SETTINGS_EACH_TIME,
  ) {
    const defaults = new this.settings({ key: SETTINGS_KEY }).toObject() as Settings & { _id?: unknown };
    delete defaults._id;
    this.defaults = defaults;
  }

  /**
   * The stored settings merged over the defaults, without writing anything: every order, checkout
   * page and guarded request reads them, through `SettingsReads` (as read a moment ago, until this
   * module publishes a settings change here; another instance's save shows within HOT_CACHE_TTL_MS).
   */
  get(): Promise<Settings> {
    return this.reads.settings(() => this.read());
  }

  private async read(): Promise<Settings> {
    // the model's collection: read on every order and checkout page, no casting needed
    const stored = await this.settings.collection.findOne({ key: SETTINGS_KEY });
    const merged: Record<string, unknown> = { ...this.defaults };
    const defaults = this.defaults as unknown as Record<string, unknown>;
    for (const [field, value] of Object.entries(stored ?? {}))
      if (isSaneSetting(field, value, defaults[field])) merged[field] = value;
    // one object answers many callers: nobody may change it
    return Object.freeze(merged) as unknown as Settings;
  }

  /** Shipping prices and the free-standard-shipping threshold used to price orders. */
  async shippingRates(): Promise<ShippingRates> {
    return ratesOf(await this.get());
  }

  /** Whether shelf prices include the 15% VAT (default false: VAT is added at checkout). */
  async pricesIncludeTax(): Promise<boolean> {
    return (await this.get()).pricesIncludeTax === true;
  }

  /** Whether the shop is in maintenance (the settings as remembered for a moment, see `get`). */
  async maintenanceMode(): Promise<boolean> {
    return (await this.get()).maintenanceMode === true;
  }

  /** The settings as the back office reads them: every field, shipping in ETB. */
  async view() {
    const s = await this.get();
    return { settings: this.toView(s), updatedAt: s.updatedAt ?? null };
  }

  /** Saves the settings form (fields left out keep their value) and audits what changed. */
  async update(input: SettingsInputDto, actor: AuthUser) {
    const before = await this.get();
    const set: Partial<Record<string, unknown>> = {};
    for (const field of EDITABLE) if (input[field] !== undefined) set[field] = input[field];
    for (const [field, stored] of Object.entries(SHIPPING_FIELDS)) {
      const etb = input[field as keyof typeof SHIPPING_FIELDS];
      if (etb !== undefined) set[stored] = toSantim(etb);
    }
    if (input.cashOnDelivery) {
      const now = before.cashOnDelivery;
      const given = input.cashOnDelivery;
      set.cashOnDelivery = {
        enabled: given.enabled ?? now.enabled,
        // each region once, in the order given
        regions: given.regions ? [...new Set(given.regions)] : [...now.regions],
        maxOrderTotalSantim:
          given.maxOrderTotal !== undefined ? toSantim(given.maxOrderTotal) : now.maxOrderTotalSantim,
      } satisfies StoredCashOnDelivery;
    }
    // the next state as a whole, before anything is stored
    const defaults = this.defaults as unknown as Record<string, unknown>;
    const insane = Object.entries(set)
      .filter(([field, value]) => !isSaneSetting(field, value, defaults[field]))
      .map(([field]) => ({ field, message: `${field} is not a valid setting` }));
    if (insane.length) throw new InvalidDataError('Validation failed', insane, 'VALIDATION_FAILED');
    const saved = await this.changes.around({ kind: 'settings' }, () =>
      this.settings
        .findOneAndUpdate(
          { key: SETTINGS_KEY },
          { $set: set, $setOnInsert: { key: SETTINGS_KEY } },
          {
            upsert: true,
            new: true,
            runValidators: true,
            setDefaultsOnInsert: true,
          },
        )
        .lean()
        .exec(),
    );
    const after = { ...before, ...saved } as Settings;
    const from: Record<string, unknown> = {};
    const to: Record<string, unknown> = {};
    const beforeView = this.toView(before) as Record<string, unknown>;
    const afterView = this.toView(after) as Record<string, unknown>;
    for (const key of Object.keys(afterView)) {
      if (JSON.stringify(beforeView[key]) !== JSON.stringify(afterView[key])) {
        from[key] = beforeView[key];
        to[key] = afterView[key];
      }
    }
    if (Object.keys(to).length) {
      await this.audit.record(actor, {
        entity: 'settings',
        entityId: SETTINGS_KEY,
        action: 'settings.update',
        from,
        to,
      });
    }
    return { settings: afterView, updatedAt: after.updatedAt ?? null };
  }

  /** What the storefront may know: no admin email, no notification switches. */
  async publicView() {
    const s = await this.get();
    const rates = ratesOf(s);
    return {
      siteName: s.siteName,
      siteDescription: s.siteDescription,
      currency: s.currency,
      language: s.language,
      maintenanceMode: s.maintenanceMode,
      shipping: (['standard', 'express', 'pickup'] as const).map((method) => ({
        method,
        price: toBirr(rates[method]),
        ...DELIVERY[method],
        ...(method === 'standard' ? { freeOver: toBirr(s.freeShippingThresholdSantim) } : {}),
      })),
      freeShippingThreshold: toBirr(s.freeShippingThresholdSantim),
      taxPercent: TAX_PERCENT,
      pricesIncludeTax: s.pricesIncludeTax === true,
      cashOnDelivery: cashOnDeliveryOf(s),
    };
  }

  private toView(s: Settings) {
    return {
      siteName: s.siteName,
      siteDescription: s.siteDescription,
      adminEmail: s.adminEmail,
      currency: s.currency,
      language: s.language,
      timezone: s.timezone,
      emailNotifications: s.emailNotifications,
      orderNotifications: s.orderNotifications,
      lowStockAlerts: s.lowStockAlerts,
      maintenanceMode: s.maintenanceMode,
      pricesIncludeTax: s.pricesIncludeTax === true,
      standardShipping: toBirr(s.standardShippingSantim),
      expressShipping: toBirr(s.expressShippingSantim),
      pickupShipping: toBirr(s.pickupShippingSantim),
      freeShippingThreshold: toBirr(s.freeShippingThresholdSantim),
      cashOnDelivery: cashOnDeliveryOf(s),
    };
  }
}
