import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { CurrentUser, type AuthUser } from '../../common/auth/auth-user';
import { JwtAuthGuard } from '../../common/auth/jwt-auth.guard';
import { sessionToken } from '../../common/auth/session';
import { ErrorDto } from '../../common/error.dto';
import { NotFoundError } from '../../common/errors/domain-error';
import { AuthService } from '../auth/auth.service';
import { SessionRenewedResponseDto } from '../auth/dto/auth.dto';
import {
  AddressInputDto,
  AddressListResponseDto,
  AddressResponseDto,
  ChangePasswordDto,
  ProfileResponseDto,
  UpdateAddressDto,
  UpdateProfileDto,
} from './dto/profile.dto';
import { AccountsService } from './accounts.service';
import { ADDRESS_NOT_FOUND, AddressesService } from './addresses.service';
import { SessionsService } from './sessions.service';

/** Address ids are small positive integers; anything else is an unknown address, not a server error. */
function addressId(raw: string): number {
  if (!/^\d{1,9}$/.test(raw)) throw new NotFoundError(ADDRESS_NOT_FOUND, 'ADDRESS_NOT_FOUND');
  return Number(raw);
}

/** The signed-in user's own profile and address book; no route takes another user's id. */
@ApiTags('users')
@ApiBearerAuth()
@ApiUnauthorizedResponse({ type: ErrorDto, description: 'No or invalid token' })
@UseGuards(JwtAuthGuard)
@Controller('users')
export class UsersController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly addresses: AddressesService,
    private readonly sessions: SessionsService,
    private readonly auth: AuthService,
  ) {}

  @Get('profile')
  @ApiOperation({ summary: 'My profile (with my saved addresses)' })
  @ApiOkResponse({ type: ProfileResponseDto })
  async getProfile(@CurrentUser() user: AuthUser) {
    return { success: true, user: await this.accounts.getProfile(user.id) };
  }

  @Put('profile')
  @ApiOperation({ summary: 'Update my name, email and phone (Ethiopian formats, normalised to +251...)' })
  @ApiOkResponse({ type: ProfileResponseDto })
  @ApiBadRequestResponse({
    type: ErrorDto,
    description: 'Field errors (email format, phone format, empty name)',
  })
  @ApiConflictResponse({ type: ErrorDto, description: 'An account with this email already exists' })
  async updateProfile(@CurrentUser() user: AuthUser, @Body() dto: UpdateProfileDto) {
    return {
      success: true,
      user: await this.accounts.updateProfile(user.id, dto),
      message: 'Profile updated successfully',
    };
  }

  @Put('profile/password')
  @ApiOperation({ summary: 'Change my password (current password required, new one strong enough)' })
  @ApiOkResponse({ type: SessionRenewedResponseDto })
  @ApiBadRequestResponse({
    type: ErrorDto,
    description:
      "'Current password is required', 'Current password is incorrect', 'Please choose a stronger password', 'Passwords do not match'",
  })
  async changePassword(
    @CurrentUser() user: AuthUser,
    @Body() dto: ChangePasswordDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    await this.sessions.changePassword(user.id, dto);
    // every other session ended; this one goes on with a fresh token (cookie renewed when it came as one)
    const token = await this.auth.issueToken(user.id);
    if (sessionToken(req)?.from === 'cookie') this.auth.setSessionCookie(res, token);
    return { success: true, message: 'Password updated successfully', token };
  }

  @Get('addresses')
  @ApiOperation({ summary: 'My saved addresses' })
  @ApiOkResponse({ type: AddressListResponseDto })
  async listAddresses(@CurrentUser() user: AuthUser) {
    return { success: true, addresses: await this.addresses.listAddresses(user.id) };
  }

  @Post('addresses')
  @ApiOperation({ summary: 'Save an address (country defaults to Ethiopia; numeric id assigned)' })
  @ApiCreatedResponse({ type: AddressResponseDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  async addAddress(@CurrentUser() user: AuthUser, @Body() dto: AddressInputDto) {
    return { success: true, ...(await this.addresses.addAddress(user.id, dto)) };
  }

  @Put('addresses/:id')
  @ApiOperation({ summary: 'Edit one of my addresses' })
  @ApiParam({ name: 'id', type: Number })
  @ApiOkResponse({ type: AddressResponseDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'Address not found' })
  async updateAddress(@CurrentUser() user: AuthUser, @Param('id') id: string, @Body() dto: UpdateAddressDto) {
    return { success: true, ...(await this.addresses.updateAddress(user.id, addressId(id), dto)) };
  }

  @Delete('addresses/:id')
  @HttpCode(200)
  @ApiOperation({ summary: 'Remove one of my addresses' })
  @ApiParam({ name: 'id', type: Number })
  @ApiOkResponse({ type: AddressListResponseDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'Address not found' })
  async removeAddress(@CurrentUser() user: AuthUser, @Param('id') id: string) {
    return { success: true, addresses: await this.addresses.removeAddress(user.id, addressId(id)) };
  }
}
