import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ETHIOPIAN_REGIONS, findEthiopianRegion } from '@shop/shared';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { IsAmount } from '../../../common/validation';
import { SETTINGS_CURRENCIES, SETTINGS_LANGUAGES, SETTINGS_TIMEZONES } from '../schemas/settings.schema';

const MAX_SHIPPING_ETB = 1_000_000;
/** The largest amount a setting may hold (MAX_SETTINGS_SANTIM of the service), in ETB. */
const MAX_SETTINGS_ETB = 1_000_000;
const REGION_NAMES = ETHIOPIAN_REGIONS.map((r) => r.en);

/** Pay on delivery's settings as the back office sends them (a field left out keeps its value). */
export class CashOnDeliveryInputDto {
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() enabled?: boolean;

  @ApiPropertyOptional({
    type: [String],
    example: ['Addis Ababa', 'Dire Dawa'],
    description:
      "Regions where it is offered: Ethiopia's regions or chartered cities (English or Amharic name, or code), stored as English names",
  })
  @IsOptional()
  @IsArray({ message: 'cashOnDelivery.regions must be a list of regions' })
  @ArrayMaxSize(ETHIOPIAN_REGIONS.length * 4)
  @Transform(({ value }) =>
    Array.isArray(value)
      ? value.map((r) => (typeof r === 'string' ? (findEthiopianRegion(r)?.en ?? r) : r))
      : value,
  )
  @IsIn(REGION_NAMES, {
    each: true,
    message: "each of cashOnDelivery.regions must be one of Ethiopia's regions or chartered cities",
  })
  regions?: string[];

  @ApiPropertyOptional({
    example: 10000,
    description: 'ETB; the largest order total (shipping and VAT included) it is offered for',
  })
  @IsOptional()
  @IsAmount({ max: MAX_SETTINGS_ETB })
  maxOrderTotal?: number;
}

export class CashOnDeliveryDto {
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ type: [String], example: ['Addis Ababa', 'Dire Dawa'] }) regions!: string[];
  @ApiProperty({ example: 10000, description: 'ETB' }) maxOrderTotal!: number;
}

/**
 * The settings form of the back office (docs/product.md §3, the shipping settings included, in ETB;
 * docs/decisions/0033-back-office-api.md). The client sends the whole object it read; a field left out
 * keeps its stored value.
 */
export class SettingsInputDto {
  @ApiPropertyOptional({ example: 'Addis Natural Beauty' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  siteName?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(500) siteDescription?: string;
  @ApiPropertyOptional({ example: 'admin@beauty.et' })
  @IsOptional()
  @IsEmail({}, { message: 'adminEmail must be a valid email address' })
  @MaxLength(254)
  adminEmail?: string;
  @ApiPropertyOptional({ enum: SETTINGS_CURRENCIES, default: 'ETB' })
  @IsOptional()
  @IsIn(SETTINGS_CURRENCIES)
  currency?: string;
  @ApiPropertyOptional({ enum: SETTINGS_LANGUAGES, default: 'en' })
  @IsOptional()
  @IsIn(SETTINGS_LANGUAGES)
  language?: string;
  @ApiPropertyOptional({ enum: SETTINGS_TIMEZONES, default: 'Africa/Addis_Ababa' })
  @IsOptional()
  @IsIn(SETTINGS_TIMEZONES)
  timezone?: string;
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() emailNotifications?: boolean;
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() orderNotifications?: boolean;
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() lowStockAlerts?: boolean;
  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() maintenanceMode?: boolean;
  @ApiPropertyOptional({
    default: false,
    description:
      'Shelf prices include the 15% VAT (the tax line shows the VAT they contain; nothing is added)',
  })
  @IsOptional()
  @IsBoolean()
  pricesIncludeTax?: boolean;
  @ApiPropertyOptional({ example: 150, description: 'ETB' })
  @IsOptional()
  @IsAmount({ max: MAX_SHIPPING_ETB })
  standardShipping?: number;
  @ApiPropertyOptional({ example: 300, description: 'ETB' })
  @IsOptional()
  @IsAmount({ max: MAX_SHIPPING_ETB })
  expressShipping?: number;
  @ApiPropertyOptional({ example: 0, description: 'ETB' })
  @IsOptional()
  @IsAmount({ max: MAX_SHIPPING_ETB })
  pickupShipping?: number;
  @ApiPropertyOptional({ example: 1000, description: 'ETB; standard shipping is free over it' })
  @IsOptional()
  @IsAmount({ max: MAX_SHIPPING_ETB })
  freeShippingThreshold?: number;
  @ApiPropertyOptional({
    type: CashOnDeliveryInputDto,
    description: 'Where pay on delivery is offered (fields left out keep their value)',
  })
  @IsOptional()
  @IsObject({ message: 'cashOnDelivery must be an object' })
  @ValidateNested()
  @Type(() => CashOnDeliveryInputDto)
  cashOnDelivery?: CashOnDeliveryInputDto;
}

export class SettingsDto {
  @ApiProperty() siteName!: string;
  @ApiProperty() siteDescription!: string;
  @ApiProperty() adminEmail!: string;
  @ApiProperty({ enum: SETTINGS_CURRENCIES }) currency!: string;
  @ApiProperty({ enum: SETTINGS_LANGUAGES }) language!: string;
  @ApiProperty({ enum: SETTINGS_TIMEZONES }) timezone!: string;
  @ApiProperty() emailNotifications!: boolean;
  @ApiProperty() orderNotifications!: boolean;
  @ApiProperty() lowStockAlerts!: boolean;
  @ApiProperty() maintenanceMode!: boolean;
  @ApiProperty({ description: 'Shelf prices include the 15% VAT' }) pricesIncludeTax!: boolean;
  @ApiProperty({ example: 150 }) standardShipping!: number;
  @ApiProperty({ example: 300 }) expressShipping!: number;
  @ApiProperty({ example: 0 }) pickupShipping!: number;
  @ApiProperty({ example: 1000 }) freeShippingThreshold!: number;
  @ApiProperty({ type: CashOnDeliveryDto }) cashOnDelivery!: CashOnDeliveryDto;
}

export class SettingsResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ type: SettingsDto }) settings!: SettingsDto;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true }) updatedAt?: string | null;
  @ApiPropertyOptional({ example: 'Settings saved' }) message?: string;
}

export class ShippingOptionDto {
  @ApiProperty({ enum: ['standard', 'express', 'pickup'] }) method!: string;
  @ApiProperty({ example: 150, description: 'ETB' }) price!: number;
  @ApiProperty({ example: 3 }) minDays!: number;
  @ApiProperty({ example: 5 }) maxDays!: number;
  @ApiProperty({ example: '3-5 business days' }) deliveryTime!: string;
  @ApiPropertyOptional({
    example: 1000,
    description: 'ETB; this method is free when the subtotal is over it',
  })
  freeOver?: number;
}

export class PublicSettingsDto {
  @ApiProperty() siteName!: string;
  @ApiProperty() siteDescription!: string;
  @ApiProperty({ enum: SETTINGS_CURRENCIES }) currency!: string;
  @ApiProperty({ enum: SETTINGS_LANGUAGES }) language!: string;
  @ApiProperty() maintenanceMode!: boolean;
  @ApiProperty({ description: 'Shelf prices include the 15% VAT' }) pricesIncludeTax!: boolean;
  @ApiProperty({ type: [ShippingOptionDto] }) shipping!: ShippingOptionDto[];
  @ApiProperty({ example: 1000 }) freeShippingThreshold!: number;
  @ApiProperty({ example: 15 }) taxPercent!: number;
  @ApiProperty({
    type: CashOnDeliveryDto,
    description: 'Where pay on delivery is offered (libs/shared codAllowed decides from it)',
  })
  cashOnDelivery!: CashOnDeliveryDto;
}

export class PublicSettingsResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ type: PublicSettingsDto }) settings!: PublicSettingsDto;
}
