import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/jwt-auth.guard';
import { CurrentUser, type AuthUser } from '../../common/auth/auth-user';
import { ErrorDto } from '../../common/error.dto';
import { PublicSettingsResponseDto, SettingsInputDto, SettingsResponseDto } from './dto/settings.dto';
import { SettingsService } from './settings.service';

@ApiTags('settings')
@Controller()
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Get('admin/settings')
  @AdminOnly()
  @ApiOperation({ summary: 'Site settings (admin); the defaults until the first save' })
  @ApiOkResponse({ type: SettingsResponseDto })
  async get() {
    return { success: true, ...(await this.settings.view()) };
  }

  @Put('admin/settings')
  @AdminOnly()
  @ApiOperation({ summary: 'Save the settings form (admin); fields left out keep their value' })
  @ApiOkResponse({ type: SettingsResponseDto })
  @ApiBadRequestResponse({ type: ErrorDto, description: 'Invalid value or unknown field' })
  async update(@Body() input: SettingsInputDto, @CurrentUser() actor: AuthUser) {
    return { success: true, ...(await this.settings.update(input, actor)), message: 'Settings saved' };
  }

  @Get('settings/public')
  @ApiOperation({ summary: 'The public subset of the settings for the storefront' })
  @ApiOkResponse({ type: PublicSettingsResponseDto })
  async getPublic() {
    return { success: true, settings: await this.settings.publicView() };
  }
}
