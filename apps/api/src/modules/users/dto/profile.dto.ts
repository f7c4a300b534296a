import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { findEthiopianRegion, normaliseEthiopianPhone } from '@shop/shared';
import { Transform } from 'class-transformer';
import { IsBoolean, IsEmail, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { IsEthiopianMobile, IsEthiopianRegion, Nullable } from '../../../common/validation';
import { UserDto } from '../../auth/dto/auth.dto';

/** The profile form: name and email (or first and last name), and an optional Ethiopian phone. */
export class UpdateProfileDto {
  @ApiPropertyOptional({ example: 'Hanna Tesfaye', description: 'Or firstName + lastName' })
  @IsOptional()
  @IsString()
  @MinLength(1, { message: 'name must not be empty' })
  @MaxLength(100)
  name?: string;

  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(50) firstName?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(50) lastName?: string;

  @ApiPropertyOptional({ example: 'hanna@example.et' })
  @IsOptional()
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(254)
  email?: string;

  @ApiPropertyOptional({
    type: String,
    example: '0911234567',
    nullable: true,
    description:
      'Ethiopian mobile number (+2519..., 09..., 07...), stored as +251...; empty string or null removes it; ' +
      'anything else is refused with INVALID_PHONE',
  })
  @IsOptional()
  @Nullable()
  @IsString()
  @MaxLength(20)
  phone?: string | null;

  @ApiPropertyOptional({ enum: ['en', 'am'], description: 'The language of the messages the shop sends' })
  @IsOptional()
  @IsIn(['en', 'am'], { message: 'language must be en or am' })
  language?: 'en' | 'am';
}

export class ChangePasswordDto {
  @ApiPropertyOptional({ description: 'The current password (alias: oldPassword); one of them is required' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  currentPassword?: string;

  @ApiPropertyOptional({ description: 'Alias of currentPassword' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  oldPassword?: string;

  @ApiProperty({ example: 'Injera@2027', description: 'Strength score of at least 3 (docs/product.md §5)' })
  @IsString()
  @MaxLength(128)
  newPassword!: string;

  @ApiPropertyOptional({ description: 'When sent, must equal newPassword' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  confirmPassword?: string;
}

export class AddressInputDto {
  @ApiProperty({ example: 'Bole Road, House 12' }) @IsString() @MinLength(1) @MaxLength(200) street!: string;
  @ApiProperty({ example: 'Addis Ababa' }) @IsString() @MinLength(1) @MaxLength(100) city!: string;
  @ApiProperty({
    example: 'Addis Ababa',
    description:
      "Region: one of Ethiopia's regions or chartered cities by English name, Amharic name or code, stored by " +
      'its English name; anything else is refused with INVALID_REGION',
  })
  @Transform(({ value }) => (typeof value === 'string' ? (findEthiopianRegion(value)?.en ?? value) : value))
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  @IsEthiopianRegion()
  state!: string;
  @ApiPropertyOptional({ example: '1000', description: 'Optional: most Ethiopian addresses have none' })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  zipCode?: string;
  @ApiPropertyOptional({
    example: '+251911234567',
    description:
      'Delivery phone (Ethiopian mobile, stored as E.164); anything else is refused with INVALID_PHONE',
  })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? (normaliseEthiopianPhone(value) ?? value) : value))
  @IsEthiopianMobile()
  phone?: string;
  @ApiPropertyOptional({ example: 'Woreda 03, near Edna Mall' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  landmark?: string;

  @ApiPropertyOptional({
    example: 'Ethiopia',
    default: 'Ethiopia',
    description: 'Delivery is only within Ethiopia',
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  country?: string;

  @ApiPropertyOptional({ description: 'Make this the default address (the first address always is)' })
  @IsOptional()
  @IsBoolean()
  isDefault?: boolean;
}

export class UpdateAddressDto extends PartialType(AddressInputDto) {}

export class AddressDto {
  @ApiProperty({ example: 1, description: 'Numeric id, unique within the user' }) id!: number;
  @ApiProperty() street!: string;
  @ApiProperty() city!: string;
  @ApiProperty() state!: string;
  @ApiPropertyOptional() zipCode?: string;
  @ApiProperty({ example: 'Ethiopia' }) country!: string;
  @ApiPropertyOptional({ example: '+251911234567' }) phone?: string;
  @ApiPropertyOptional({ example: 'Near Edna Mall' }) landmark?: string;
  @ApiProperty() isDefault!: boolean;
}

export class ProfileUserDto extends UserDto {
  @ApiPropertyOptional({ type: [AddressDto], description: 'On GET /users/profile' }) addresses?: AddressDto[];
}

export class ProfileResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ type: ProfileUserDto }) user!: ProfileUserDto;
  @ApiPropertyOptional({ example: 'Profile updated successfully' }) message?: string;
}

export class AddressListResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ type: [AddressDto] }) addresses!: AddressDto[];
}

export class AddressResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ type: AddressDto }) address!: AddressDto;
  @ApiProperty({ type: [AddressDto] }) addresses!: AddressDto[];
}
