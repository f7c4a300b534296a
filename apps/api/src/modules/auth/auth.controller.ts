import {
  applyDecorators,
  Body,
  Controller,
  Get,
  HttpCode,
  Inject,
  Post,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiBody,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { CookieOptions, Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../config';
import { CurrentUser, type AuthUser } from '../../common/auth/auth-user';
import { csrfPolicyOf, refuseCrossSiteCookieWrite } from '../../common/auth/csrf';
import { JwtAuthGuard } from '../../common/auth/jwt-auth.guard';
import { sessionToken } from '../../common/auth/session';
import { ErrorDto } from '../../common/error.dto';
import { cartOwnerOf, CartOwnerGuard, type CartRequest } from '../cart/cart-owner.guard';
import { CartService } from '../cart/cart.service';
import { WishlistService } from '../wishlist/wishlist.service';
import { AuthService } from './auth.service';
import {
  AuthResponseDto,
  ForgotPasswordDto,
  LoginDto,
  LogoutDto,
  MeResponseDto,
  MessageResponseDto,
  OtpRequestDto,
  OtpVerifyDto,
  OtpVerifyResponseDto,
  RegisterAdminDto,
  RegisterDto,
  ResetPasswordDto,
  VerifyPhoneDto,
} from './dto/auth.dto';
import { ShopperSummaryDto } from './dto/shopper-summary.dto';
import { PasswordResetService, RESET_DONE, RESET_REQUESTED } from './password-reset.service';
import { OTP_SENT, PhoneSignInService } from './phone-sign-in.service';
import { PHONE_CODE_SENT, PhoneVerificationService } from './phone-verification.service';

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** Sign-in and registration are limited per client IP (AUTH_RATE_LIMIT per minute). */
const RateLimited = () =>
  applyDecorators(
    UseGuards(ThrottlerGuard),
    ApiTooManyRequestsResponse({ type: ErrorDto, description: 'Rate limit per client IP' }),
  );

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly resets: PasswordResetService,
    private readonly phones: PhoneVerificationService,
    private readonly phoneSignIn: PhoneSignInService,
    private readonly cart: CartService,
    private readonly wishlist: WishlistService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.csrf = csrfPolicyOf(config);
  }

  private readonly csrf: ReturnType<typeof csrfPolicyOf>;

  private cookieOptions(): CookieOptions {
    return { httpOnly: true, sameSite: 'lax', secure: this.config.nodeEnv === 'production', path: '/' };
  }

  private setToken(res: Response, token: string): void {
    res.cookie('token', token, { ...this.cookieOptions(), maxAge: WEEK_MS });
  }

  @Post('register')
  @RateLimited()
  @ApiOperation({
    summary: 'Register a customer; signs in (token in the answer and an httpOnly cookie)',
    description:
      "Takes the sign-up form as a client of docs/product.md §7 sends it: confirmPassword, role 'customer' and an empty adminSecret are accepted. " +
      "role 'admin' with adminSecret is the admin registration, with the rules of /auth/register-admin.",
  })
  @ApiCreatedResponse({ type: AuthResponseDto })
  @ApiBadRequestResponse({
    type: ErrorDto,
    description:
      "'Passwords do not match', 'Please choose a stronger password', 'Admin secret key is required', field errors",
  })
  @ApiForbiddenResponse({ type: ErrorDto, description: "'Admin registration failed' (wrong admin secret)" })
  @ApiConflictResponse({ type: ErrorDto, description: 'An account with this email already exists' })
  async register(@Body() dto: RegisterDto, @Res({ passthrough: true }) res: Response) {
    const { user, token } = await this.auth.register(dto);
    this.setToken(res, token);
    const message = user.role === 'admin' ? 'Admin account created' : 'Account created';
    return { success: true, token, user, message };
  }

  @Post('register-admin')
  @RateLimited()
  @ApiOperation({ summary: 'Register an admin with the server secret key' })
  @ApiCreatedResponse({ type: AuthResponseDto })
  @ApiBadRequestResponse({ type: ErrorDto, description: 'Admin secret key is required' })
  @ApiForbiddenResponse({ type: ErrorDto, description: 'Admin registration failed' })
  @ApiConflictResponse({ type: ErrorDto })
  async registerAdmin(@Body() dto: RegisterAdminDto, @Res({ passthrough: true }) res: Response) {
    const { user, token } = await this.auth.registerAdmin(dto);
    this.setToken(res, token);
    return { success: true, token, user, message: 'Admin account created' };
  }

  @Post('login')
  @RateLimited()
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign in (the role choice admin refuses non-admins)' })
  @ApiOkResponse({ type: AuthResponseDto })
  @ApiUnauthorizedResponse({ type: ErrorDto, description: 'Invalid email or password' })
  @ApiForbiddenResponse({ type: ErrorDto, description: 'This account has been deactivated' })
  async login(@Body() dto: LoginDto, @Res({ passthrough: true }) res: Response) {
    const { user, token } = await this.auth.login(dto);
    this.setToken(res, token);
    return { success: true, token, user, message: 'Signed in' };
  }

  @Post('otp/request')
  @RateLimited()
  @HttpCode(202)
  @ApiOperation({
    summary:
      'Phone sign-in, step 1: send a 6-digit code by SMS (10 minutes, five tries, single use; 3 codes per hour per number); the same answer whether or not an account has the number',
  })
  @ApiAcceptedResponse({ type: MessageResponseDto })
  @ApiBadRequestResponse({ type: ErrorDto, description: 'Not an Ethiopian mobile number (field phone)' })
  @ApiTooManyRequestsResponse({
    type: ErrorDto,
    description: 'TOO_MANY_CODES: three codes this hour for this number; or the rate limit per client IP',
  })
  async requestOtp(@Body() dto: OtpRequestDto) {
    await this.phoneSignIn.request(dto.phone, dto.language);
    return { success: true, message: OTP_SENT };
  }

  @Post('otp/verify')
  @RateLimited()
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Phone sign-in, step 2: the code signs in the account with this verified phone, or creates a customer account (no email, no password, name ''); guest orders placed with the number join it. Token and cookie as POST /auth/login",
  })
  @ApiOkResponse({ type: OtpVerifyResponseDto })
  @ApiBadRequestResponse({
    type: ErrorDto,
    description: "OTP_INVALID: 'This code is invalid or has expired' (wrong, expired, used, or a sixth try)",
  })
  @ApiForbiddenResponse({
    type: ErrorDto,
    description: 'ACCOUNT_DEACTIVATED; ACCESS_DENIED for a staff account (password sign-in only)',
  })
  async verifyOtp(@Body() dto: OtpVerifyDto, @Res({ passthrough: true }) res: Response) {
    const { user, token, created } = await this.phoneSignIn.verify(dto.phone, dto.code);
    this.setToken(res, token);
    return { success: true, token, user, created, message: created ? 'Account created' : 'Signed in' };
  }

  @Post('forgot-password')
  @RateLimited()
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Ask for a password reset: a 30-minute single-use link by email, or a 6-digit code by SMS; the same answer whether or not the account exists',
  })
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  async forgotPassword(@Body() dto: ForgotPasswordDto, @Req() req: Request) {
    await this.resets.request(dto, req.ip);
    return { success: true, message: RESET_REQUESTED };
  }

  @Post('reset-password')
  @RateLimited()
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Set a new password with the emailed token, or the email and SMS code; ends every earlier session',
  })
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiBadRequestResponse({
    type: ErrorDto,
    description:
      "RESET_INVALID: 'This reset link or code is invalid or has expired'; weak or mismatched password",
  })
  async resetPassword(@Body() dto: ResetPasswordDto) {
    await this.resets.reset(dto);
    return { success: true, message: RESET_DONE };
  }

  @Post('logout')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Sign out: ends this token (or, with everywhere: true, every token of the account) and clears the token cookie',
  })
  @ApiBody({ type: LogoutDto, required: false })
  @ApiOkResponse({ type: MessageResponseDto })
  async logout(@Req() req: Request, @Body() dto: LogoutDto, @Res({ passthrough: true }) res: Response) {
    const session = sessionToken(req);
    if (session?.from === 'cookie') refuseCrossSiteCookieWrite(req, this.csrf);
    await this.auth.logout(session?.token, dto?.everywhere === true);
    res.clearCookie('token', this.cookieOptions());
    return { success: true, message: dto?.everywhere ? 'Signed out on every device' : 'Signed out' };
  }

  @Get('me')
  @UseGuards(JwtAuthGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'The signed-in user' })
  @ApiOkResponse({ type: MeResponseDto })
  @ApiUnauthorizedResponse({ type: ErrorDto })
  async me(@CurrentUser() user: AuthUser) {
    return { success: true, user: await this.auth.me(user.id) };
  }

  @Get('session')
  @UseGuards(CartOwnerGuard)
  @ApiBearerAuth()
  @ApiHeader({
    name: 'X-Cart-Id',
    required: false,
    description: 'A guest cart id (32 hex characters), for callers without a token',
  })
  @ApiOperation({
    summary:
      "What a shop page's header needs, in one call: the signed-in user, the cart's lines, the wishlist's products",
    description:
      'The same user as `GET /auth/me`, the same item count and lines as `GET /cart`, the same products as ' +
      '`GET /wishlist` (docs/decisions/0105-shopper-summary.md), read only: the fixes those calls write ' +
      '(a withdrawn line dropped...) are left to them, and no cart is created. Without a token: `user` null, ' +
      'the guest cart of `X-Cart-Id` (or the cookie) or an empty one, no wishlist. An invalid token: 401 as `GET /auth/me`.',
  })
  @ApiOkResponse({ type: ShopperSummaryDto })
  @ApiUnauthorizedResponse({ type: ErrorDto, description: 'INVALID_TOKEN: invalid, expired or ended token' })
  async session(@Req() req: CartRequest) {
    const signedIn = req.user;
    const [user, cart, productIds] = await Promise.all([
      signedIn ? this.auth.me(signedIn.id) : null,
      this.cart.summary(cartOwnerOf(req)),
      signedIn ? this.wishlist.productIds(signedIn.id) : [],
    ]);
    return { user, cart, wishlist: { productIds } };
  }

  @Post('phone/send-code')
  @UseGuards(JwtAuthGuard)
  @RateLimited()
  @HttpCode(200)
  @ApiBearerAuth()
  @ApiOperation({
    summary:
      'Send a 6-digit code by SMS to my profile phone to verify it (10 minutes; 3 per hour per account)',
  })
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiBadRequestResponse({ type: ErrorDto, description: 'PHONE_REQUIRED: no phone in the profile' })
  @ApiConflictResponse({ type: ErrorDto, description: 'PHONE_VERIFIED: already verified' })
  @ApiUnauthorizedResponse({ type: ErrorDto })
  async sendPhoneCode(@CurrentUser() user: AuthUser) {
    await this.phones.sendCode(user.id);
    return { success: true, message: PHONE_CODE_SENT };
  }

  @Post('phone/verify')
  @UseGuards(JwtAuthGuard)
  @RateLimited()
  @HttpCode(200)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Verify my profile phone with the SMS code (single use, five tries)' })
  @ApiOkResponse({ type: MeResponseDto })
  @ApiBadRequestResponse({ type: ErrorDto, description: 'PHONE_CODE_INVALID: wrong, used or expired code' })
  @ApiUnauthorizedResponse({ type: ErrorDto })
  async verifyPhone(@CurrentUser() user: AuthUser, @Body() dto: VerifyPhoneDto) {
    await this.phones.verify(user.id, dto.code);
    return { success: true, user: await this.auth.me(user.id) };
  }
}
