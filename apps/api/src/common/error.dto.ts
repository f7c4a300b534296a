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
}
