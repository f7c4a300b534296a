import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDate,
  IsIn,
  IsMongoId,
  IsOptional,
  IsString,
  Length,
  ValidateNested,
} from 'class-validator';
import { IsAmount } from '../../../common/validation';
import { PROMOTION_KINDS, type PromotionKind } from '../schemas/promotion.schema';

export class PromotionNameDto {
  @ApiProperty({ example: 'Timket week' }) @IsString() @Length(1, 120) en!: string;
  @ApiProperty({ example: 'የጥምቀት ሳምንት' }) @IsString() @Length(1, 120) am!: string;
}

/** A sale as staff create it: a percentage (1 to 100) or ETB off, for products and/or categories. */
export class PromotionInputDto {
  @ApiProperty({ type: PromotionNameDto })
  @ValidateNested()
  @Type(() => PromotionNameDto)
  name!: PromotionNameDto;

  @ApiProperty({ enum: PROMOTION_KINDS })
  @IsIn(PROMOTION_KINDS, { message: `kind must be one of ${PROMOTION_KINDS.join(', ')}` })
  kind!: PromotionKind;

  @ApiProperty({ example: 20, description: 'percent: 1 to 100; fixed: ETB off each unit (below its price)' })
  // a finite JSON number with at most two decimals in any notation (class-validator's maxDecimalPlaces threw on
  // 9e-323: a 500); its sign and whether it suits the kind are the service's checks (INVALID_PROMOTION)
  @IsAmount({ min: -10_000_000, max: 10_000_000 })
  value!: number;

  @ApiPropertyOptional({ type: [String], description: 'Product ids' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(500)
  @IsMongoId({ each: true })
  productIds?: string[];

  @ApiPropertyOptional({ type: [String], example: ['skincare'], description: 'Category slugs' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  categories?: string[];

  @ApiProperty({
    type: String,
    format: 'date-time',
    description: 'An instant (send the shop time with its offset, +03:00)',
  })
  @Type(() => Date)
  @IsDate({ message: 'startsAt must be a date' })
  startsAt!: Date;

  @ApiProperty({ type: String, format: 'date-time' })
  @Type(() => Date)
  @IsDate({ message: 'endsAt must be a date' })
  endsAt!: Date;

  @ApiPropertyOptional({ default: true, description: 'false pauses the sale' })
  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

export class PromotionUpdateDto extends PartialType(PromotionInputDto) {}

export class PromotionDto {
  @ApiProperty() id!: string;
  @ApiProperty() _id!: string;
  @ApiProperty({ type: PromotionNameDto }) name!: PromotionNameDto;
  @ApiProperty({ enum: PROMOTION_KINDS }) kind!: string;
  @ApiProperty({ example: 20, description: 'percent, or ETB for fixed' }) value!: number;
  @ApiProperty({ type: [String] }) productIds!: string[];
  @ApiProperty({ type: [String] }) categories!: string[];
  @ApiProperty({ type: String, format: 'date-time' }) startsAt!: string;
  @ApiProperty({ type: String, format: 'date-time' }) endsAt!: string;
  @ApiProperty() active!: boolean;
  @ApiProperty({ enum: ['scheduled', 'running', 'ended', 'paused'] }) status!: string;
}
