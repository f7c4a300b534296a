import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/jwt-auth.guard';
import { DashboardService } from './dashboard.service';
import { DashboardStatsDto } from './dto/dashboard.dto';

@ApiTags('admin')
@Controller('admin/dashboard')
@AdminOnly()
export class AdminDashboardController {
  constructor(private readonly dashboard: DashboardService) {}

  @Get('stats')
  @ApiOperation({
    summary:
      'Dashboard figures: totals, 7-day sales in the shop timezone, top sellers, recent orders and activity, low stock',
  })
  @ApiOkResponse({ type: DashboardStatsDto })
  async stats() {
    return { success: true, ...(await this.dashboard.stats()) };
  }
}
