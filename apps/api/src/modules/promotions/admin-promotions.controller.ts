import { Body, Controller, Delete, Get, Param, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
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
import { PromotionDto, PromotionInputDto, PromotionUpdateDto } from './dto/promotion.dto';
import { PromotionsService, type PromotionFilter, type PromotionView } from './promotions.service';

const withId = (promotion: PromotionView) => ({ id: promotion._id, ...promotion });

/** The sales list: filters q (name in either language), active, id. */
const PROMOTIONS_LIST: ListSpec = {
  sortFields: { createdAt: 'createdAt', startsAt: 'startsAt', endsAt: 'endsAt', active: 'active' },
  filters: ['q', 'active'],
  defaultSort: ['startsAt', 'DESC'],
};

const promotionFilter = (filter: Record<string, FilterValue>): PromotionFilter => ({
  q: filterText(filter, 'q'),
  active: filterBoolean(filter, 'active'),
});

/** Staff's scheduled sales (docs/decisions/0095): list, create, edit (pause: active false), delete. */
@ApiTags('admin')
@Controller('admin/promotions')
@AdminOnly()
export class AdminPromotionsController {
  constructor(private readonly promotions: PromotionsService) {}

  @Get()
  @ApiOperation({ summary: 'Scheduled sales (react-admin list; filter q over the name, active, id)' })
  @ApiReactAdminList('promotions', PromotionDto)
  async list(@Query() query: ReactAdminListQuery, @Res({ passthrough: true }) res: Response) {
    return sendList(
      res,
      'promotions',
      await this.promotions.listForAdmin(readListQuery(query, PROMOTIONS_LIST, promotionFilter)),
    );
  }

  @Get(':id')
  @ApiOperation({ summary: 'One sale' })
  @ApiOkResponse({ type: PromotionDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'PROMOTION_NOT_FOUND' })
  async getOne(@Param('id') id: string) {
    return withId(await this.promotions.get(id));
  }

  @Post()
  @ApiOperation({ summary: 'Create a sale (percent 1-100 or ETB off, for products and/or categories)' })
  @ApiCreatedResponse({ type: PromotionDto })
  @ApiBadRequestResponse({ type: ErrorDto, description: 'INVALID_PROMOTION, VALIDATION_FAILED' })
  @ApiNotFoundResponse({
    type: ErrorDto,
    description: 'PRODUCT_NOT_FOUND: a targeted product does not exist',
  })
  async create(@Body() body: PromotionInputDto) {
    return withId(await this.promotions.create(body));
  }

  @Put(':id')
  @ApiOperation({ summary: 'Edit a sale (the whole record may be sent; active false pauses it)' })
  @ApiOkResponse({ type: PromotionDto })
  @ApiBadRequestResponse({ type: ErrorDto, description: 'INVALID_PROMOTION, VALIDATION_FAILED' })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'PROMOTION_NOT_FOUND, PRODUCT_NOT_FOUND' })
  async update(@Param('id') id: string, @Body() body: PromotionUpdateDto) {
    return withId(await this.promotions.update(id, body));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a sale (orders keep the prices they were placed at); answers it' })
  @ApiOkResponse({ type: PromotionDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'PROMOTION_NOT_FOUND' })
  async remove(@Param('id') id: string) {
    return withId(await this.promotions.remove(id));
  }
}
