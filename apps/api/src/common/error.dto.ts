import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class FieldErrorDto {
  @ApiProperty({ example: 'email' }) field!: string;
  @ApiProperty({ example: 'email must be an email' }) message!: string;
}

/** The one error shape of the API. */
export class ErrorDto {
  @ApiProperty({ example: false }) success!: boolean;
  @ApiProperty({ example: 404 }) statusCode!: number;
  @ApiProperty({ example: 'Product not found' }) message!: string;
  @ApiPropertyOptional({ type: [FieldErrorDto] }) errors?: FieldErrorDto[];
  @ApiPropertyOptional({
    example: 'INSUFFICIENT_STOCK',
    description:
      'Stable reason for clients that word the error themselves: OUT_OF_STOCK, INSUFFICIENT_STOCK, UNAVAILABLE',
  })
  code?: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }] },
    example: { product: 'Shea Butter Cream', available: 3, inCart: 2 },
    description: 'Values for the coded message',
  })
  params?: Record<string, string | number>;
}
