import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ORDER_STATUSES, ROLES } from '@shop/shared';
import { IsBoolean, IsEmail, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { UserDto } from '../../auth/dto/auth.dto';
import { ContactReplyDto } from '../../contacts/dto/contact.dto';

/** Roles accepted on input: 'user' is read as 'customer' (docs/product.md §3). */
export const ROLE_INPUTS = [...ROLES, 'user'] as const;

export class AdminCreateUserDto {
  @ApiProperty({ example: 'Selam Bekele' }) @IsString() @MinLength(1) @MaxLength(100) name!: string;
  @ApiProperty({ example: 'selam@example.et' })
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(254)
  email!: string;
  @ApiProperty({
    example: 'Buna@2026',
    description: 'At least 3 of: 8+ characters, upper, lower, digit, symbol',
  })
  @IsString()
  @MaxLength(128)
  password!: string;
  @ApiPropertyOptional({ enum: ROLE_INPUTS, default: 'customer' })
  @IsOptional()
  @IsIn(ROLE_INPUTS)
  role?: string;
  @ApiPropertyOptional({ example: '+251911234567' }) @IsOptional() @IsString() @MaxLength(20) phone?: string;
}

export class ChangeRoleDto {
  @ApiProperty({ enum: ROLE_INPUTS })
  @IsIn(ROLE_INPUTS, { message: 'role must be customer or admin' })
  role!: string;
}

export class ChangeActiveDto {
  @ApiProperty() @IsBoolean() isActive!: boolean;
}

/** `PUT /api/admin/users/{id}`: the edit form of the users screen; every field optional. */
export class AdminUpdateUserDto {
  @ApiPropertyOptional({ example: 'Selam Bekele' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name?: string;
  @ApiPropertyOptional({ example: 'selam@example.et' })
  @IsOptional()
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(254)
  email?: string;
  @ApiPropertyOptional({ enum: ROLE_INPUTS })
  @IsOptional()
  @IsIn(ROLE_INPUTS, { message: 'role must be customer or admin' })
  role?: string;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() isActive?: boolean;
}

export class AdminOrderStatusDto {
  @ApiProperty({ enum: ORDER_STATUSES })
  @IsIn(ORDER_STATUSES, { message: `status must be one of ${ORDER_STATUSES.join(', ')}` })
  status!: string;
  @ApiPropertyOptional({ example: 'ET123456789' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  trackingNumber?: string;
}

export class UserMessageResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ example: 'User role updated successfully' }) message!: string;
  @ApiProperty({ type: UserDto }) user!: UserDto;
}

export class UserCreatedResponseDto extends UserMessageResponseDto {
  @ApiProperty({ description: 'The new user id (react-admin reads it)' }) id!: string;
}

export class DeletedResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ example: 'User deleted successfully' }) message!: string;
  @ApiProperty() id!: string;
}

export class ContactRecordDto {
  @ApiProperty() id!: string;
  @ApiProperty() _id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() email!: string;
  @ApiProperty() subject!: string;
  @ApiProperty() message!: string;
  @ApiProperty({ enum: ['unread', 'read', 'replied'] }) status!: string;
  @ApiPropertyOptional() ipAddress?: string;
  @ApiPropertyOptional({ enum: ['en', 'am'], description: 'The page language of the message' })
  language?: string;
  @ApiProperty({ type: [ContactReplyDto] }) replies!: ContactReplyDto[];
  @ApiProperty({ type: String, format: 'date-time' }) createdAt!: string;
}

class NamedRefDto {
  @ApiProperty() _id!: string;
  @ApiProperty() name!: string;
}

export class ReviewRecordDto {
  @ApiProperty() id!: string;
  @ApiProperty() _id!: string;
  @ApiProperty({ type: NamedRefDto }) user!: NamedRefDto;
  @ApiProperty({ type: NamedRefDto }) product!: NamedRefDto;
  @ApiProperty({ minimum: 1, maximum: 5 }) rating!: number;
  @ApiPropertyOptional() title?: string;
  @ApiProperty() comment!: string;
  @ApiProperty() verified!: boolean;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt!: string;
}

export class AdminUserRecordDto extends UserDto {}
