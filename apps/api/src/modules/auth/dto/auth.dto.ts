import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsEmail, IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

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
  @ApiProperty() name!: string;
  @ApiProperty() firstName!: string;
  @ApiProperty() lastName!: string;
  @ApiProperty() email!: string;
  @ApiPropertyOptional() phone?: string;
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
