import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { normaliseEthiopianPhone } from '@shop/shared';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsEmail,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';
import { IsEthiopianMobile } from '../../../common/validation';

export class RegisterDto {
  @ApiPropertyOptional({ example: 'Hanna Tesfaye', description: 'Or firstName + lastName' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name?: string;

  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(50) firstName?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(50) lastName?: string;

  @ApiProperty({ example: 'hanna@example.et' })
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(254)
  email!: string;

  @ApiProperty({ example: 'Buna@2026' })
  @IsString()
  @MaxLength(128)
  password!: string;

  @ApiPropertyOptional({ example: 'Buna@2026' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  confirmPassword?: string;

  @ApiPropertyOptional({ example: '+251911234567' })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  phone?: string;

  @ApiPropertyOptional({
    enum: ['customer', 'user', 'admin'],
    description:
      "The sign-up form's role choice. 'customer' (or 'user') registers a customer; 'admin' with a non-empty adminSecret is the admin registration (same rules as /auth/register-admin)",
  })
  @IsOptional()
  @IsIn(['customer', 'user', 'admin'], { message: 'role must be customer or admin' })
  role?: string;

  @ApiPropertyOptional({
    description:
      "The sign-up form's admin secret key field: ignored when empty (a customer's sign-up); with role 'admin' it is checked against the server's secret",
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  adminSecret?: string;

  @ApiPropertyOptional({
    enum: ['en', 'am'],
    description:
      "The sign-up page's language: the account's language, which the shop's messages use (docs/decisions/0077)",
  })
  @IsOptional()
  @IsIn(['en', 'am'], { message: 'language must be en or am' })
  language?: 'en' | 'am';
}

export class RegisterAdminDto extends RegisterDto {
  @ApiPropertyOptional({ description: "The server's admin secret key (adminSecret is read as well)" })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  adminSecretKey?: string;
}

export class LoginDto {
  @ApiProperty({ example: 'customer@beauty.et' })
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(254)
  email!: string;

  @ApiProperty({ example: 'Customer@123' })
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  password!: string;

  @ApiPropertyOptional({
    enum: ['customer', 'admin', 'user'],
    description: 'The role chosen on the sign-in form',
  })
  @IsOptional()
  @IsIn(['customer', 'admin', 'user'])
  role?: string;
}

export class LogoutDto {
  @ApiPropertyOptional({
    description: 'Sign out on every device (every token of this account ends), not just this session',
  })
  @IsOptional()
  @IsBoolean()
  everywhere?: boolean;
}

export class UserDto {
  @ApiProperty() _id!: string;
  @ApiProperty() id!: string;
  @ApiProperty({ description: "'' for an account made by phone sign-in until its owner gives a name" })
  name!: string;
  @ApiProperty() firstName!: string;
  @ApiProperty() lastName!: string;
  @ApiPropertyOptional({
    description: 'Absent for an account made by phone sign-in until its owner adds one',
  })
  email?: string;
  @ApiPropertyOptional() phone?: string;
  @ApiPropertyOptional({
    description:
      'With a phone: whether it was proven with an SMS code (reset codes go only to a verified phone)',
  })
  phoneVerified?: boolean;
  @ApiPropertyOptional({ enum: ['en', 'am'], description: 'Language of the messages the shop sends' })
  language?: string;
  @ApiProperty({ enum: ['customer', 'admin'] }) role!: string;
  @ApiProperty() isActive!: boolean;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt!: string;
}

export class AuthResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty() token!: string;
  @ApiProperty({ type: UserDto }) user!: UserDto;
  @ApiProperty({ example: 'Signed in' }) message!: string;
}

export class MeResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ type: UserDto }) user!: UserDto;
}

export class MessageResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty() message!: string;
}

export class SessionRenewedResponseDto extends MessageResponseDto {
  @ApiProperty({
    description: 'A new token for this session: every earlier token of the account has ended',
  })
  token!: string;
}

export class ForgotPasswordDto {
  @ApiProperty({ example: 'hanna@example.et' })
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(254)
  email!: string;

  @ApiPropertyOptional({
    enum: ['email', 'sms'],
    description: "sms sends a 6-digit code to the account's phone (email when it has none)",
  })
  @IsOptional()
  @IsIn(['email', 'sms'])
  channel?: 'email' | 'sms';

  @ApiPropertyOptional({
    enum: ['storefront', 'admin'],
    description: 'Where the link opens (admin: staff only)',
  })
  @IsOptional()
  @IsIn(['storefront', 'admin'])
  app?: 'storefront' | 'admin';
}

export class ResetPasswordDto {
  @ApiPropertyOptional({ description: 'The token from the emailed link' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  token?: string;

  @ApiPropertyOptional({ description: 'With code: the account email' })
  @IsOptional()
  @IsEmail({}, { message: 'email must be a valid email address' })
  @MaxLength(254)
  email?: string;

  @ApiPropertyOptional({ description: 'The 6-digit code sent by SMS', example: '042917' })
  @IsOptional()
  @IsString()
  @MaxLength(6)
  @MinLength(6)
  code?: string;

  @ApiProperty({ example: 'Injera@2027' })
  @IsString()
  @MaxLength(128)
  password!: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(128)
  confirmPassword?: string;
}

export class VerifyPhoneDto {
  @ApiProperty({ example: '042519', description: 'The 6-digit code sent by SMS to the profile phone' })
  @IsString({ message: 'code must be the 6 digits sent by SMS' })
  @Matches(/^\d{6}$/, { message: 'code must be the 6 digits sent by SMS' })
  code!: string;
}

/** A phone number as sign-in takes it: an Ethiopian mobile number in any usual form, stored as E.164. */
const PHONE_DESCRIPTION =
  'Ethiopian mobile number (+2519..., +2517..., 09... or 07...), read as +251...; anything else is a 400 on the field phone';
const toE164 = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? (normaliseEthiopianPhone(value) ?? value) : value;

export class OtpRequestDto {
  @ApiProperty({ example: '0911234567', description: PHONE_DESCRIPTION })
  @Transform(toE164)
  @IsEthiopianMobile()
  phone!: string;

  @ApiPropertyOptional({
    enum: ['en', 'am'],
    description: "The SMS's language (default: the account's chosen language, else the shop's)",
  })
  @IsOptional()
  @IsIn(['en', 'am'], { message: 'language must be en or am' })
  language?: 'en' | 'am';
}

export class OtpVerifyDto {
  @ApiProperty({ example: '0911234567', description: PHONE_DESCRIPTION })
  @Transform(toE164)
  @IsEthiopianMobile()
  phone!: string;

  @ApiProperty({ example: '042519', description: 'The 6-digit code sent by SMS' })
  @IsString({ message: 'code must be the 6 digits sent by SMS' })
  @Matches(/^\d{6}$/, { message: 'code must be the 6 digits sent by SMS' })
  code!: string;
}

export class OtpVerifyResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({
    description: 'The same session token as POST /auth/login (also set as the httpOnly cookie)',
  })
  token!: string;
  @ApiProperty({ type: UserDto, description: "A new account has name '' and no email" }) user!: UserDto;
  @ApiProperty({ description: 'Whether this sign-in created the account' }) created!: boolean;
  @ApiProperty({ example: 'Signed in' }) message!: string;
}
