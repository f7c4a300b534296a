import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorDto } from '../../common/error.dto';
import { AdminOnly } from '../../common/auth/jwt-auth.guard';
import { DashboardService } from './dashboard.service';
import { DashboardStatsDto } from './dto/dashboard.dto';
import { SalesBreakdownDto, SalesPeriodQuery } from './dto/sales-breakdown.dto';
import { SalesBreakdownService } from './sales-breakdown.service';

@ApiTags('admin')
@Controller('admin/dashboard')
@AdminOnly()
export class AdminDashboardController {
  constructor(
    private readonly dashboard: DashboardService,
    private readonly breakdown: SalesBreakdownService,
  ) {}

  @Get('sales')
  @ApiOperation({
    summary:
      'Sales by delivery region and by payment method over a period of shop days (from and to included, YYYY-MM-DD on the shop clock; default the last 30 days), net of refunds',
  })
  @ApiOkResponse({ type: SalesBreakdownDto })
  @ApiBadRequestResponse({ type: ErrorDto, description: 'INVALID_REPORT_PERIOD' })
  async sales(@Query() query: SalesPeriodQuery) {
    return { success: true, ...(await this.breakdown.breakdown(query)) };
  }

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
