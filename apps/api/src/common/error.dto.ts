import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ERROR_CODES } from '@shop/shared';

export class FieldErrorDto {
  @ApiProperty({ example: 'email' }) field!: string;
  @ApiProperty({ example: 'email must be an email' }) message!: string;
  @ApiProperty({
    example: 'VALIDATION_FAILED',
    description: 'Stable reason of this field (VALIDATION_FAILED when none finer applies)',
  })
  code!: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }] },
  })
  params?: Record<string, string | number>;
}

/** The one error shape of the API. */
export class ErrorDto {
  @ApiProperty({ example: false }) success!: boolean;
  @ApiProperty({ example: 404 }) statusCode!: number;
  @ApiProperty({ example: 'Product not found' }) message!: string;
  @ApiPropertyOptional({ type: [FieldErrorDto] }) errors?: FieldErrorDto[];
  @ApiProperty({
    example: 'INSUFFICIENT_STOCK',
    enum: ERROR_CODES,
    description:
      'Stable UPPER_SNAKE reason on every error: clients word it themselves from it (en and am texts in ' +
      'libs/i18n under errors.<CODE>); `message` stays the English text for third parties.',
  })
  code!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }] },
    example: { product: 'Shea Butter Cream', available: 3, inCart: 2 },
    description: 'Values for the coded message (`{}` when it needs none)',
  })
  params!: Record<string, string | number>;
}
