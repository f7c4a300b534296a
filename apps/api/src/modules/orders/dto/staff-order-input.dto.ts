import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ORDER_STATUSES, REFUND_METHODS, type RefundMethod } from '@shop/shared';
import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsAmount } from '../../../common/validation';

// What staff send about an order: a change of status, a refund, a note (the order's own shapes are in
// order.dto.ts).

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class ChangeOrderStatusDto {
  @ApiProperty({ enum: ORDER_STATUSES, example: 'shipped' })
  @IsIn(ORDER_STATUSES, { message: `status must be one of ${ORDER_STATUSES.join(', ')}` })
  status!: string;

  @ApiPropertyOptional({ example: 'ET123456789' })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(100)
  trackingNumber?: string;
}

export class RecordRefundDto {
  @ApiProperty({ example: 100, description: 'ETB, at most what is left of the paid amount' })
  // at most two decimals in any notation (class-validator's maxDecimalPlaces threw on 9e-323: a 500)
  @IsAmount({ min: 0.01, max: 10_000_000 })
  amount!: number;

  @ApiProperty({ maxLength: 500, description: 'Why (required)' })
  @IsString()
  @Transform(trim)
  @IsNotEmpty()
  @MaxLength(500)
  reason!: string;

  @ApiProperty({
    enum: REFUND_METHODS,
    description: "'chapa': through Chapa's refund API; 'manual': with a reference",
  })
  @IsIn(REFUND_METHODS)
  method!: RefundMethod;

  @ApiPropertyOptional({
    maxLength: 100,
    description: 'Required for a manual refund (bank transfer, receipt…)',
  })
  @IsOptional()
  @IsString()
  @Transform(trim)
  @MaxLength(100)
  reference?: string;
}

export class AddOrderNoteDto {
  @ApiProperty({ maxLength: 2000 })
  @IsString()
  @Transform(trim)
  @IsNotEmpty()
  @MaxLength(2000)
  text!: string;
}
