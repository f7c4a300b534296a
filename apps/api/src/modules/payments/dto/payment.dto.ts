import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsMongoId, IsString } from 'class-validator';

export class InitializePaymentDto {
  @ApiProperty({ example: '665f1c2e9b1d8c0012345678', description: "The customer's own unpaid order" })
  @IsString()
  @IsMongoId({ message: 'orderId must be an order id' })
  orderId!: string;
}

export class CompleteTestPaymentDto {
  @ApiProperty({
    enum: ['success', 'failed'],
    description: 'The outcome the customer chooses on the test checkout page',
  })
  @IsString()
  @IsIn(['success', 'failed'])
  outcome!: 'success' | 'failed';
}

export class HostedFormFieldsDto {
  @ApiProperty({ description: 'Chapa public key (empty with the test provider)' }) public_key!: string;
  @ApiProperty() tx_ref!: string;
  @ApiProperty({ example: '1207.50', description: 'ETB with two decimals' }) amount!: string;
  @ApiProperty({ example: 'ETB' }) currency!: string;
  @ApiProperty() email!: string;
  @ApiProperty() first_name!: string;
  @ApiProperty() last_name!: string;
  @ApiProperty() title!: string;
  @ApiProperty() description!: string;
  @ApiProperty() logo!: string;
  @ApiProperty() callback_url!: string;
  @ApiProperty() return_url!: string;
}

export class HostedFormDto {
  @ApiProperty({
    example: 'https://api.chapa.co/v1/hosted/pay',
    description: 'Where the browser posts the fields',
  })
  action!: string;
  @ApiProperty({ type: HostedFormFieldsDto }) fields!: HostedFormFieldsDto;
}

export class InitializePaymentResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({
    enum: ['chapa', 'test'],
    description: "'test': the offline test provider, nothing is charged",
  })
  provider!: string;
  @ApiProperty({ example: 'bs-665f1c2e9b1d8c0012345678-9f2c4e1a7b3d5c60' }) txRef!: string;
  @ApiProperty({ description: "The provider's checkout page (or the test checkout page)" })
  checkoutUrl!: string;
  @ApiProperty({ example: 1207.5, description: 'ETB, from the stored order' }) amount!: number;
  @ApiProperty({ example: 'ETB' }) currency!: string;
  @ApiProperty({ type: HostedFormDto }) hostedForm!: HostedFormDto;
}

export class PaymentOrderSummaryDto {
  @ApiProperty() _id!: string;
  @ApiPropertyOptional({ example: 'AN-10042', description: 'The order number customers see' })
  orderNumber?: string;
  @ApiProperty({ enum: ['pending', 'processing', 'shipped', 'delivered', 'cancelled'] }) status!: string;
  @ApiProperty({ enum: ['unpaid', 'paid', 'failed', 'refund_pending', 'refunded'] }) paymentStatus!: string;
  @ApiProperty() paymentMethod!: string;
  @ApiProperty({ example: 1207.5 }) totalAmount!: number;
  @ApiProperty({ example: 'ETB' }) currency!: string;
  @ApiPropertyOptional({ type: String, format: 'date-time' }) paidAt?: string;
  @ApiPropertyOptional() paymentReference?: string;
}

export class VerifyPaymentResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ enum: ['paid', 'failed', 'pending', 'refund_pending'] }) status!: string;
  @ApiProperty({
    example: 'Payment Successful!',
    description:
      "'Payment Successful!' (paid), 'Payment was not successful' (declined), 'Payment verification failed' " +
      "(amount or currency differ from the order), 'Payment is still being processed' (pending), or the refund notice",
  })
  message!: string;
  @ApiProperty({
    enum: [
      'PAYMENT_SUCCESS',
      'PAYMENT_REFUND_PENDING',
      'PAYMENT_FAILED',
      'PAYMENT_VERIFICATION_FAILED',
      'PAYMENT_PENDING',
    ],
    description: 'Stable code of the outcome; texts in libs/i18n under errors.<CODE>',
  })
  code!: string;
  @ApiProperty() txRef!: string;
  @ApiProperty({ enum: ['chapa', 'test'] }) provider!: string;
  @ApiPropertyOptional({ type: PaymentOrderSummaryDto }) order?: PaymentOrderSummaryDto;
}

export class PaymentCallbackResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ enum: ['paid', 'failed', 'pending', 'refund_pending'] }) status!: string;
  @ApiProperty({ example: 'Payment Successful!' }) message!: string;
  @ApiProperty({
    example: 'PAYMENT_SUCCESS',
    description: 'Stable code of the outcome (see VerifyPaymentResponseDto)',
  })
  code!: string;
  @ApiProperty() txRef!: string;
  @ApiProperty({ enum: ['chapa', 'test'] }) provider!: string;
}

export class WebhookAckDto {
  @ApiProperty({ example: true }) received!: boolean;
  @ApiProperty({
    example: true,
    description: 'False for repeats, unknown references and deferred verifications',
  })
  processed!: boolean;
}

export class TestPaymentCompletedDto extends VerifyPaymentResponseDto {
  @ApiProperty({ description: "The storefront's payment return page for this transaction" })
  returnUrl!: string;
}
