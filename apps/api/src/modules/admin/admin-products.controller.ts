import { Body, Controller, Delete, Get, Param, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentUser, type AuthUser } from '../../common/auth/auth-user';
import { AdminOnly } from '../../common/auth/jwt-auth.guard';
import { ErrorDto } from '../../common/error.dto';
import { setContentRange } from '../../common/react-admin';
import { AdminListQuery, ApiAdminList, isSpecListQuery, specList } from '../../common/spec-list';
import { ProductInputDto } from '../catalog/dto/product-input.dto';
import { ProductDto } from '../catalog/dto/product.dto';
import { AdminProductsService } from './admin-products.service';

/** The spec's `status` of a product: on sale or withdrawn. */
const SPEC_FILTERS = { status: { active: { active: true }, inactive: { active: false } } };

@ApiTags('admin')
@Controller('admin/products')
@AdminOnly()
export class AdminProductsController {
  constructor(private readonly products: AdminProductsService) {}

  @Get()
  @ApiOperation({
    summary:
      'Products, withdrawn ones included (react-admin list; filter q, category, active, isFeatured, lowStock, id)',
  })
  @ApiAdminList('products', ProductDto)
  async list(@Query() query: AdminListQuery, @Res({ passthrough: true }) res: Response) {
    if (isSpecListQuery(query))
      return specList('products', query, SPEC_FILTERS, (q) => this.products.list(q));
    const { records, skip, total } = await this.products.list(query);
    setContentRange(res, 'products', skip, records.length, total);
    return records;
  }

  @Get(':id')
  @ApiOperation({ summary: 'One product (withdrawn ones included)' })
  @ApiOkResponse({ type: ProductDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  getOne(@Param('id') id: string) {
    return this.products.getOne(id);
  }

  @Post()
  @ApiOperation({ summary: 'Create a product (react-admin create: answers the record with id)' })
  @ApiBody({ type: ProductInputDto })
  @ApiCreatedResponse({ type: ProductDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  @ApiConflictResponse({ type: ErrorDto })
  create(@Body() body: unknown, @CurrentUser() actor: AuthUser) {
    return this.products.create(body, actor);
  }

  @Put(':id')
  @ApiOperation({
    summary:
      'Update a product (react-admin update). The record read-only fields (id, _id, rating, reviewCount, discount, timestamps) are ignored; price and stock changes are audited',
  })
  @ApiBody({ type: ProductInputDto })
  @ApiOkResponse({ type: ProductDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  update(@Param('id') id: string, @Body() body: unknown, @CurrentUser() actor: AuthUser) {
    return this.products.update(id, body, actor);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Withdraw a product from sale (react-admin delete: answers the record)' })
  @ApiOkResponse({ type: ProductDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  remove(@Param('id') id: string, @CurrentUser() actor: AuthUser) {
    return this.products.remove(id, actor);
  }
}
