import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PAYMENT_METHODS, SETTINGS_CURRENCIES, SETTINGS_TIMEZONES } from '@shop/shared';
import { IsOptional, IsString, MaxLength } from 'class-validator';

export class SalesPeriodQuery {
  @ApiPropertyOptional({ example: '2026-11-01', description: 'First shop day (default: 30 days before to)' })
  @IsOptional()
  @IsString()
  @MaxLength(10)
  from?: string;

  @ApiPropertyOptional({ example: '2026-11-30', description: 'Last shop day, included (default: today)' })
  @IsOptional()
  @IsString()
  @MaxLength(10)
  to?: string;
}

export class RegionSalesDto {
  @ApiProperty({ example: 'Addis Ababa', description: "The delivery region's canonical English name" })
  region!: string;
  @ApiProperty({ example: 12 }) orders!: number;
  @ApiProperty({ example: 9400.5, description: 'Net of refunds, in the shop currency' }) total!: number;
}

export class PaymentMethodSalesDto {
  @ApiProperty({ enum: PAYMENT_METHODS }) paymentMethod!: string;
  @ApiProperty({ example: 7 }) orders!: number;
  @ApiProperty({ example: 5120, description: 'Net of refunds, in the shop currency' }) total!: number;
}

export class SalesBreakdownDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ example: '2026-11-01' }) from!: string;
  @ApiProperty({ example: '2026-11-30' }) to!: string;
  @ApiProperty({ enum: SETTINGS_TIMEZONES }) timezone!: string;
  @ApiProperty({ enum: SETTINGS_CURRENCIES }) currency!: string;
  @ApiProperty({ type: [RegionSalesDto] }) byRegion!: RegionSalesDto[];
  @ApiProperty({ type: [PaymentMethodSalesDto] }) byPaymentMethod!: PaymentMethodSalesDto[];
}
