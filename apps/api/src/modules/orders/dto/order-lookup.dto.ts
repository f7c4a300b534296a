import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ORDER_STATUSES, PAYMENT_METHODS, PAYMENT_STATUSES } from '@shop/shared';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import type { OrderLookupView } from '../order.view';

// The order lookup by number and phone (GET /api/orders/lookup): what is asked and what is shown.

/** GET /api/orders/lookup: an order's number and the phone it was placed with. */
export class OrderLookupQueryDto {
  @ApiProperty({ example: 'AN-10042', description: 'The order number (AN-10042, an-10042 or 10042)' })
  @IsString()
  @IsNotEmpty({ message: 'number is required' })
  @MaxLength(40)
  number!: string;

  @ApiProperty({
    example: '0911234567',
    description: 'The phone the order was placed with, in any usual spelling',
  })
  @IsString()
  @IsNotEmpty({ message: 'phone is required' })
  @MaxLength(40)
  phone!: string;
}

export class OrderLookupItemDto {
  @ApiProperty() name!: string;
  @ApiPropertyOptional() nameAm?: string;
  @ApiProperty() quantity!: number;
}

export class OrderLookupHistoryDto {
  @ApiProperty({ enum: ORDER_STATUSES }) status!: string;
  @ApiProperty({ type: String, format: 'date-time' }) at!: Date;
}

/** What the lookup shows: the order's state, never its street, phone, email or name. */
export class OrderLookupDto implements OrderLookupView {
  @ApiPropertyOptional({ example: 'AN-10042' }) orderNumber?: string;
  @ApiProperty({ enum: ORDER_STATUSES }) status!: string;
  @ApiProperty({ enum: PAYMENT_STATUSES }) paymentStatus!: string;
  @ApiProperty({ enum: PAYMENT_METHODS }) paymentMethod!: string;
  @ApiProperty({ type: [OrderLookupItemDto] }) items!: OrderLookupItemDto[];
  @ApiProperty({ description: 'ETB' }) subtotal!: number;
  @ApiProperty({ description: 'ETB' }) shippingCost!: number;
  @ApiProperty({ description: 'ETB' }) tax!: number;
  @ApiProperty({ description: 'ETB' }) totalAmount!: number;
  @ApiProperty({ example: 'ETB' }) currency!: string;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt!: Date;
  @ApiProperty({
    type: 'object',
    properties: { city: { type: 'string' }, region: { type: 'string' } },
    description: 'Only the city and region the order goes to',
  })
  shipping!: { city: string; region: string };
  @ApiProperty({ type: [OrderLookupHistoryDto] }) statusHistory!: OrderLookupHistoryDto[];
}

export class OrderLookupResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ type: OrderLookupDto }) order!: OrderLookupDto;
}
