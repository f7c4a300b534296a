import { Body, Controller, Delete, Get, Param, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { AdminOnly } from '../../common/auth/jwt-auth.guard';
import { ErrorDto } from '../../common/error.dto';
import {
  ApiReactAdminList,
  filterBoolean,
  filterText,
  ReactAdminListQuery,
  readListQuery,
  sendList,
  type FilterValue,
  type ListSpec,
} from '../../common/react-admin-list';
import { CouponsService, type CouponFilter, type CouponView } from './coupons.service';
import { CouponDto, CouponInputDto, CouponUpdateDto } from './dto/coupon.dto';

const withId = (coupon: CouponView) => ({ id: coupon._id, ...coupon });

/** The coupons list: filters q (code), active, id. */
const COUPONS_LIST: ListSpec = {
  sortFields: { createdAt: 'createdAt', code: 'code', uses: 'uses', endsAt: 'endsAt', active: 'active' },
  filters: ['q', 'active'],
  defaultSort: ['createdAt', 'DESC'],
};

const couponFilter = (filter: Record<string, FilterValue>): CouponFilter => ({
  q: filterText(filter, 'q'),
  active: filterBoolean(filter, 'active'),
});

/** Staff's coupon codes (docs/decisions/0096-coupon-codes.md): list with uses, create, edit, deactivate. */
@ApiTags('admin')
@Controller('admin/coupons')
@AdminOnly()
export class AdminCouponsController {
  constructor(private readonly coupons: CouponsService) {}

  @Get()
  @ApiOperation({
    summary: 'Coupon codes with their uses (react-admin list; filter q over the code, active, id)',
  })
  @ApiReactAdminList('coupons', CouponDto)
  async list(@Query() query: ReactAdminListQuery, @Res({ passthrough: true }) res: Response) {
    return sendList(
      res,
      'coupons',
      await this.coupons.listForAdmin(readListQuery(query, COUPONS_LIST, couponFilter)),
    );
  }

  @Get(':id')
  @ApiOperation({ summary: 'One coupon code' })
  @ApiOkResponse({ type: CouponDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'COUPON_NOT_FOUND' })
  async getOne(@Param('id') id: string) {
    return withId(await this.coupons.get(id));
  }

  @Post()
  @ApiOperation({ summary: 'Create a coupon code (stored upper-case)' })
  @ApiCreatedResponse({ type: CouponDto })
  @ApiBadRequestResponse({ type: ErrorDto, description: 'INVALID_COUPON, VALIDATION_FAILED' })
  @ApiConflictResponse({ type: ErrorDto, description: 'COUPON_CODE_TAKEN: the code exists (any case)' })
  async create(@Body() body: CouponInputDto) {
    return withId(await this.coupons.create(body));
  }

  @Put(':id')
  @ApiOperation({ summary: 'Edit a coupon code (the whole record may be sent; uses are not edited)' })
  @ApiOkResponse({ type: CouponDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'COUPON_NOT_FOUND' })
  @ApiConflictResponse({ type: ErrorDto, description: 'COUPON_CODE_TAKEN' })
  async update(@Param('id') id: string, @Body() body: CouponUpdateDto) {
    return withId(await this.coupons.update(id, body));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Deactivate a coupon code (orders keep it; answers the record)' })
  @ApiOkResponse({ type: CouponDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'COUPON_NOT_FOUND' })
  async remove(@Param('id') id: string) {
    return withId(await this.coupons.deactivate(id));
  }
}
