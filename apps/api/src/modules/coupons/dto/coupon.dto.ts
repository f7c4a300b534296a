import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsDate, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { IsAmount, Nullable } from '../../../common/validation';
import { COUPON_KINDS, type CouponKind } from '../schemas/coupon.schema';

export const COUPON_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{2,31}$/;
const MAX_COUPON_AMOUNT = 1_000_000;

/** A coupon as staff create it (amounts in ETB; a percentage as 1 to 100). */
export class CouponInputDto {
  @ApiProperty({ example: 'BUNA10', description: 'Letters, digits, - and _ (3 to 32); stored upper-case' })
  @IsString()
  @Matches(COUPON_CODE_PATTERN, { message: 'code must be 3 to 32 letters, digits, - or _' })
  code!: string;

  @ApiProperty({ enum: COUPON_KINDS })
  @IsIn(COUPON_KINDS, { message: `kind must be one of ${COUPON_KINDS.join(', ')}` })
  kind!: CouponKind;

  @ApiPropertyOptional({
    example: 10,
    description: 'percent: 1 to 100; fixed: ETB off the subtotal; freeShipping: ignored (0)',
  })
  @IsOptional()
  @IsAmount({ max: MAX_COUPON_AMOUNT })
  value?: number;

  @ApiPropertyOptional({ example: 500, description: 'The subtotal (ETB) an order must reach' })
  @IsOptional()
  @IsAmount({ max: MAX_COUPON_AMOUNT })
  minSubtotal?: number;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @IsOptional()
  @Nullable()
  @Type(() => Date)
  @IsDate({ message: 'startsAt must be a date' })
  startsAt?: Date | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @IsOptional()
  @Nullable()
  @Type(() => Date)
  @IsDate({ message: 'endsAt must be a date' })
  endsAt?: Date | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    example: 100,
    description: 'Orders in all; left out or null: no limit',
  })
  @IsOptional()
  @Nullable()
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  usageLimit?: number | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    example: 1,
    description: 'Orders per customer (account, or phone); left out or null: no limit',
  })
  @IsOptional()
  @Nullable()
  @IsInt()
  @Min(1)
  @Max(10_000)
  perCustomerLimit?: number | null;

  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() active?: boolean;
}

export class CouponUpdateDto extends PartialType(CouponInputDto) {}

export class CouponDto {
  @ApiProperty() id!: string;
  @ApiProperty({ example: 'BUNA10' }) code!: string;
  @ApiProperty({ enum: COUPON_KINDS }) kind!: string;
  @ApiProperty({ example: 10, description: 'percent, or ETB for fixed' }) value!: number;
  @ApiProperty({ example: 0 }) minSubtotal!: number;
  @ApiPropertyOptional({ type: String, format: 'date-time' }) startsAt?: string;
  @ApiPropertyOptional({ type: String, format: 'date-time' }) endsAt?: string;
  @ApiPropertyOptional() usageLimit?: number;
  @ApiPropertyOptional() perCustomerLimit?: number;
  @ApiProperty() active!: boolean;
  @ApiProperty({ description: 'Orders that carry it now (a cancelled order gave its use back)' })
  uses!: number;
}

export class ApplyCouponDto {
  @ApiProperty({ example: 'buna10', description: 'Any case' })
  @IsString({ message: 'code is required' })
  @Matches(/^\s*\S{1,64}\s*$/, { message: 'code is required' })
  code!: string;
}

/** The coupon a cart carries (additive to the cart answer). */
export class CartCouponDto {
  @ApiProperty({ example: 'BUNA10' }) code!: string;
  @ApiPropertyOptional({
    enum: COUPON_KINDS,
    description: 'Absent while the code gives nothing (couponProblem)',
  })
  kind?: string;
  @ApiPropertyOptional({ example: 10, description: 'percent, or ETB for fixed' }) value?: number;
}

/** Why the cart's coupon gives nothing now. */
export class CouponProblemDto {
  @ApiProperty({ example: 'COUPON_MIN_SUBTOTAL', description: 'Texts in libs/i18n under errors.<CODE>' })
  code!: string;
  @ApiProperty({ example: 'The code BUNA10 needs a subtotal of at least 500 ETB' }) message!: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) params?: Record<
    string,
    string | number
  >;
}
