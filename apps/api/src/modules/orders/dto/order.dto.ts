import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { OrderLineVariantDto } from './order-line.dto';
import {
  DEFAULT_PAYMENT_METHOD,
  DELIVERY_COUNTRY,
  DELIVERY_COUNTRY_MESSAGE,
  ETHIOPIAN_REGIONS,
  findEthiopianRegion,
  normaliseEthiopianPhone,
  REGION_MESSAGE,
  ORDER_STATUSES,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  REFUND_METHODS,
  SHIPPING_METHODS,
  deliveryCountry,
} from '@shop/shared';
import { Transform, Type } from 'class-transformer';
import {
  IsDefined,
  IsEmail,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { IsEthiopianMobile, IsEthiopianRegion } from '../../../common/validation';
import type { OrderLookupDto } from './order-lookup.dto';
import type {
  AdminOrderView,
  OrderLookupView,
  OrderNoteView,
  RefundView,
  OrderItemView,
  OrderProductSnapshot,
  OrderView,
  ShippingAddressView,
  StatusChangeView,
} from '../order.view';

export const PHONE_MESSAGE = 'phone must be an Ethiopian mobile number (+2519..., +2517..., 09... or 07...)';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const lower = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim().toLowerCase() : value;

export class ShippingAddressDto {
  @ApiProperty({ example: 'Bole Road, House 12' })
  @Transform(trim)
  @IsString()
  @IsNotEmpty({ message: 'street is required' })
  @MaxLength(200)
  street!: string;

  @ApiProperty({ example: 'Addis Ababa' })
  @Transform(trim)
  @IsString()
  @IsNotEmpty({ message: 'city is required' })
  @MaxLength(100)
  city!: string;

  @ApiProperty({
    example: 'Addis Ababa',
    description:
      "The region: one of Ethiopia's regions or chartered cities, by English name, Amharic name or code " +
      `(${ETHIOPIAN_REGIONS.map((r) => `${r.code} ${r.en} / ${r.am}`).join(', ')}); stored as the English name; anything else is refused with INVALID_REGION`,
  })
  @Transform(({ value }) =>
    typeof value === 'string' ? (findEthiopianRegion(value)?.en ?? value.trim()) : value,
  )
  @IsString()
  @IsNotEmpty({ message: 'state is required' })
  @IsEthiopianRegion({ message: REGION_MESSAGE })
  state!: string;

  @ApiPropertyOptional({ example: '1000', description: 'Optional: most Ethiopian addresses have none' })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(20)
  zipCode?: string;

  @ApiPropertyOptional({
    example: '+251911234567',
    description:
      'Delivery phone, an Ethiopian mobile number (+2519/+2517, 09/07...), stored as E.164. Left out, the ' +
      "account's profile phone is used. Anything else is refused with INVALID_PHONE.",
  })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? (normaliseEthiopianPhone(value) ?? value) : value))
  @IsEthiopianMobile({ message: PHONE_MESSAGE })
  phone?: string;

  @ApiPropertyOptional({
    example: 'Woreda 03, near Edna Mall',
    description: "Woreda/kebele or a landmark ('near ...')",
  })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(200)
  landmark?: string;

  @ApiPropertyOptional({
    example: 'Ethiopia',
    default: 'Ethiopia',
    enum: [DELIVERY_COUNTRY],
    description: DELIVERY_COUNTRY_MESSAGE,
  })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? (deliveryCountry(value) ?? value) : value))
  @IsString()
  @IsIn([DELIVERY_COUNTRY], { message: DELIVERY_COUNTRY_MESSAGE })
  country?: string;
}

/** Who a guest is (guest checkout): a name, an Ethiopian mobile number and, if they like, an email. */
export class GuestContactDto {
  @ApiProperty({ example: 'Hana Tesfaye', minLength: 1, maxLength: 100 })
  @Transform(trim)
  @IsString()
  @IsNotEmpty({ message: 'guest.name is required' })
  @MaxLength(100)
  name!: string;

  @ApiProperty({
    example: '0911234567',
    description:
      'An Ethiopian mobile number (+2519/+2517, 09/07...), stored as E.164; order messages go to it by SMS',
  })
  @Transform(({ value }) => (typeof value === 'string' ? (normaliseEthiopianPhone(value) ?? value) : value))
  @IsDefined({ message: 'guest.phone is required' })
  @IsEthiopianMobile({ message: PHONE_MESSAGE })
  phone!: string;

  @ApiPropertyOptional({ example: 'hana@example.com', description: 'Optional: order messages also go to it' })
  @IsOptional()
  @Transform(lower)
  @IsEmail({}, { message: 'guest.email must be a valid email address' })
  @MaxLength(254)
  email?: string;
}

/** The items come from the customer's cart on the server; prices sent by a client are refused. */
export class PlaceOrderDto {
  @ApiProperty({ type: ShippingAddressDto })
  @IsDefined({ message: 'shippingAddress is required' })
  @IsObject({ message: 'shippingAddress must be an object' })
  @ValidateNested()
  @Type(() => ShippingAddressDto)
  shippingAddress!: ShippingAddressDto;

  @ApiPropertyOptional({
    enum: [...PAYMENT_METHODS, 'none'],
    default: 'chapa',
    description:
      "All but cash_on_delivery are paid through Chapa. Missing or 'none' (the method is chosen on Chapa's hosted page) is " +
      "stored as chapa, unpaid. 'cash_on_delivery' (paid to the rider) only where the settings' cashOnDelivery allows it " +
      '(enabled, the region listed, the total with shipping and VAT at most maxOrderTotal); else 422 COD_UNAVAILABLE',
  })
  @IsOptional()
  @Transform(({ value }) => {
    const method = lower({ value });
    return method === 'none' || method === '' ? DEFAULT_PAYMENT_METHOD : method;
  })
  @IsIn(PAYMENT_METHODS, { message: `paymentMethod must be one of ${PAYMENT_METHODS.join(', ')}` })
  paymentMethod?: string;

  @ApiPropertyOptional({ enum: SHIPPING_METHODS, default: 'standard' })
  @IsOptional()
  @Transform(lower)
  @IsIn(SHIPPING_METHODS, { message: `shippingMethod must be one of ${SHIPPING_METHODS.join(', ')}` })
  shippingMethod?: string;

  @ApiPropertyOptional({
    type: GuestContactDto,
    description:
      'Guest checkout only (no token, X-Cart-Id): required then. With a token it is ignored (an account order).',
  })
  @IsOptional()
  @IsObject({ message: 'guest must be an object' })
  @ValidateNested()
  @Type(() => GuestContactDto)
  guest?: GuestContactDto;

  @ApiPropertyOptional({
    enum: ['en', 'am'],
    description:
      "The language of the page the order is placed from: the order's messages use it when the account has " +
      "chosen none (a guest's always). Stored on the order as its language",
  })
  @IsOptional()
  @IsIn(['en', 'am'], { message: 'language must be en or am' })
  language?: 'en' | 'am';
}

/** Staff record the money the rider collected for a pay-on-delivery order. */
export class CollectPaymentDto {
  @ApiPropertyOptional({
    example: 'RCPT-2041',
    maxLength: 100,
    description: "The receipt or telebirr reference; stored as the order's paymentReference (unique)",
  })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @IsNotEmpty({ message: 'reference must not be empty' })
  @MaxLength(100)
  reference?: string;
}

export class ShippingAddressViewDto implements ShippingAddressView {
  @ApiProperty() street!: string;
  @ApiProperty() city!: string;
  @ApiProperty({ description: "Region: the English name of one of Ethiopia's regions" }) state!: string;
  @ApiPropertyOptional() zipCode?: string;
  @ApiProperty({ example: 'Ethiopia' }) country!: string;
  @ApiPropertyOptional({ example: '+251911234567', description: 'Delivery phone, E.164' }) phone?: string;
  @ApiPropertyOptional({ example: 'Near Edna Mall' }) landmark?: string;
}

export class OrderProductSnapshotDto implements OrderProductSnapshot {
  @ApiProperty({ description: 'Product id' }) _id!: string;
  @ApiProperty({ example: 'Shea Butter Cream', description: 'Name at purchase time' }) name!: string;
  @ApiPropertyOptional({ description: 'Amharic name at purchase time' }) nameAm?: string;
  @ApiProperty({ type: [String], description: 'Image at purchase time (absolute URL)' }) images!: string[];
  @ApiProperty({ example: 450.5, description: 'Unit price in ETB at purchase time' }) price!: number;
}

export class OrderItemDto extends OrderLineVariantDto implements OrderItemView {
  @ApiProperty() _id!: string;
  @ApiProperty({ type: OrderProductSnapshotDto, description: 'The product as it was bought' })
  product!: OrderProductSnapshotDto;
  @ApiProperty({ example: 'Shea Butter Cream', description: 'Name at purchase time' }) name!: string;
  @ApiPropertyOptional({ description: 'Amharic name at purchase time' }) nameAm?: string;
  @ApiPropertyOptional({ description: 'Image at purchase time' }) image?: string;
  @ApiProperty({ example: 2 }) quantity!: number;
  @ApiProperty({ example: 450.5, description: 'Unit price in ETB at purchase time' })
  priceAtPurchase!: number;
}

export class StatusChangeDto implements StatusChangeView {
  @ApiProperty({ enum: ORDER_STATUSES }) status!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Id of the user who made the change' }) by!:
    string | null;
  @ApiProperty({ type: String, format: 'date-time' }) at!: Date;
  @ApiPropertyOptional() note?: string;
}

export class OrderCustomerDto implements NonNullable<OrderView['customer']> {
  @ApiProperty() name!: string;
  @ApiPropertyOptional({ description: "Absent on a guest's order placed without an email" }) email?: string;
  @ApiPropertyOptional({ example: '+251911234567', description: 'E.164; always on a guest order' })
  phone?: string;
}

/** What an order number is, in every DTO that carries one. */
export const ORDER_NUMBER_DESCRIPTION =
  'Short human order number, sequential per shop; what customers and staff quote';

export class OrderDto implements OrderView {
  @ApiProperty() _id!: string;
  @ApiProperty({ description: 'Mirror of _id' }) id!: string;
  @ApiPropertyOptional({ example: 'AN-10042', description: ORDER_NUMBER_DESCRIPTION })
  orderNumber?: string;
  @ApiPropertyOptional({ description: "Id of the customer's account; absent on a guest's order" })
  user?: string;
  @ApiPropertyOptional({ type: OrderCustomerDto }) customer?: OrderCustomerDto;
  @ApiProperty({ type: [OrderItemDto] }) orderItems!: OrderItemDto[];
  @ApiProperty({ type: ShippingAddressViewDto }) shippingAddress!: ShippingAddressViewDto;
  @ApiProperty({ enum: SHIPPING_METHODS }) shippingMethod!: string;
  @ApiProperty({
    enum: PAYMENT_METHODS,
    example: 'chapa',
    description: "'cash_on_delivery': paid to the rider, recorded by staff; every other: through Chapa",
  })
  paymentMethod!: string;
  @ApiProperty({ example: 901, description: 'ETB' }) subtotal!: number;
  @ApiProperty({ example: 150, description: 'ETB' }) shippingCost!: number;
  @ApiProperty({
    example: 135.15,
    description: '15% VAT of the subtotal, ETB (with pricesIncludeTax: the VAT the subtotal contains)',
  })
  tax!: number;
  @ApiProperty({
    example: 1186.15,
    description: 'subtotal + shippingCost + tax, ETB (with pricesIncludeTax: subtotal + shippingCost)',
  })
  totalAmount!: number;
  @ApiPropertyOptional({ description: 'Whether the prices included the VAT when the order was placed' })
  pricesIncludeTax?: boolean;
  @ApiPropertyOptional({ example: 'BUNA10', description: 'The coupon code the order redeemed' })
  couponCode?: string;
  @ApiPropertyOptional({
    example: 103.15,
    description: "The coupon's discount, ETB (0 for free shipping: see shippingCost)",
  })
  discount?: number;
  @ApiPropertyOptional({
    enum: ['en', 'am'],
    description: "The language of the order's messages (the account's, else the page's it was placed from)",
  })
  language?: string;
  @ApiProperty({ example: 'ETB' }) currency!: string;
  @ApiProperty({ enum: ORDER_STATUSES }) status!: string;
  @ApiProperty({ enum: PAYMENT_STATUSES }) paymentStatus!: string;
  @ApiPropertyOptional({ type: String, format: 'date-time' }) paidAt?: Date;
  @ApiPropertyOptional() paymentReference?: string;
  @ApiPropertyOptional() trackingNumber?: string;
  @ApiPropertyOptional({ example: 100, description: 'ETB given back so far (absent: nothing refunded)' })
  refunded?: number;
  @ApiProperty({ type: [StatusChangeDto] }) statusHistory!: StatusChangeDto[];
  @ApiProperty({ type: String, format: 'date-time' }) createdAt!: Date;
  @ApiProperty({ type: String, format: 'date-time' }) updatedAt!: Date;
}

export class RefundDto implements RefundView {
  @ApiProperty() _id!: string;
  @ApiProperty({ example: 100, description: 'ETB' }) amount!: number;
  @ApiProperty() reason!: string;
  @ApiProperty({ enum: REFUND_METHODS }) method!: string;
  @ApiPropertyOptional({ description: "Chapa's refund reference, or the manual refund's" })
  reference?: string;
  @ApiProperty({ type: String, nullable: true, description: 'Id of the staff member' }) by!: string | null;
  @ApiPropertyOptional({ description: 'Their name when recorded' }) byName?: string;
  @ApiProperty({ type: String, format: 'date-time' }) at!: Date;
}

export class OrderNoteDto implements OrderNoteView {
  @ApiProperty() _id!: string;
  @ApiProperty() text!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Id of the staff member' }) by!: string | null;
  @ApiPropertyOptional({ description: 'Their name when written' }) byName?: string;
  @ApiProperty({ type: String, format: 'date-time' }) at!: Date;
}

/** One order as staff see it: with its refunds and internal notes (never in a customer's answer). */
export class AdminOrderDto extends OrderDto implements AdminOrderView {
  @ApiProperty({ type: [RefundDto] }) refunds!: RefundDto[];
  @ApiProperty({ type: [OrderNoteDto], description: 'Staff only' }) notes!: OrderNoteDto[];
}

export class AdminOrderResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ type: AdminOrderDto }) order!: AdminOrderDto;
  @ApiProperty() message!: string;
}

/** Compile-time: each DTO declares exactly its view's fields (`implements` alone lets a DTO have more). */
type SameFields<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never]
  ? true
  : { dtoOnly: Exclude<keyof A, keyof B>; viewOnly: Exclude<keyof B, keyof A> };
type Holds<T extends true> = T;
export type OrderDtosMatchTheirViews = [
  Holds<SameFields<OrderDto, OrderView>>,
  Holds<SameFields<OrderItemDto, OrderItemView>>,
  Holds<SameFields<OrderProductSnapshotDto, OrderProductSnapshot>>,
  Holds<SameFields<ShippingAddressViewDto, ShippingAddressView>>,
  Holds<SameFields<StatusChangeDto, StatusChangeView>>,
  Holds<SameFields<OrderCustomerDto, NonNullable<OrderView['customer']>>>,
  Holds<SameFields<OrderLookupDto, OrderLookupView>>,
  Holds<SameFields<RefundDto, RefundView>>,
  Holds<SameFields<OrderNoteDto, OrderNoteView>>,
  Holds<SameFields<AdminOrderDto, AdminOrderView>>,
];

export class OrderUserDto {
  @ApiProperty() _id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() email!: string;
}

/** An order row of the admin list called as the spec's clients call it (docs/product.md §7): the customer's account populated. */
export class AdminOrderRowDto extends OmitType(OrderDto, ['user'] as const) {
  @ApiProperty({
    type: OrderUserDto,
    description:
      "The account (its name and email at order time if deleted); a guest's order: _id '' with the name and email it was placed under",
  })
  user!: OrderUserDto;
}

export class PlacedOrderResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ type: OrderDto }) order!: OrderDto;
  @ApiPropertyOptional({
    description:
      "A guest's order only: the token that opens this order (X-Order-Token on GET /api/orders/{id} and the payment " +
      'routes) for 90 days; keep it secret',
  })
  guestAccessToken?: string;
}

export class OrderResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ type: OrderDto }) order!: OrderDto;
  @ApiPropertyOptional({ example: 'Order cancelled' }) message?: string;
}

export class OrderListResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ type: [OrderDto], description: 'Newest first' }) orders!: OrderDto[];
}
