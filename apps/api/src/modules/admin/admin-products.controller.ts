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
import { CATEGORY_SLUGS } from '@shop/shared';
import {
  filterBoolean,
  filterEnum,
  filterText,
  readListQuery,
  sendList,
  type FilterValue,
  type ListSpec,
  type ReactAdminListQuery,
} from '../../common/react-admin-list';
import { AdminListQuery, ApiAdminList, isSpecListQuery, specList } from './list/spec-list';
import { STOCK_STATES, type AdminProductFilter } from '../catalog/catalog.types';
import { ProductsService } from '../catalog/products.service';
import { BulkActiveDto, BulkActiveResponseDto, ProductInputDto } from '../catalog/dto/product-input.dto';
import { ProductDto } from '../catalog/dto/product.dto';
import {
  ProductFormPipe,
  ProductRecordPipe,
  type ProductForm,
  type ProductRecord,
} from '../catalog/product-form';

/** react-admin records carry `id` beside `_id`. */
const withId = <R extends { _id?: unknown }>(record: R) => ({ id: String(record._id), ...record });

/** The products list: sortable fields, filters q (name, brand, sku), category, active, isFeatured, lowStock, stockState, id. */
const LIST: ListSpec = {
  sortFields: {
    name: 'name',
    brand: 'brand',
    price: 'priceSantim',
    stock: 'stock',
    countInStock: 'stock',
    createdAt: 'createdAt',
    rating: 'rating',
    reviewCount: 'reviewCount',
    category: 'category',
    active: 'active',
    isFeatured: 'isFeatured',
    sku: 'sku',
  },
  filters: ['q', 'category', 'active', 'isFeatured', 'lowStock', 'stockState'],
  defaultSort: ['createdAt', 'DESC'],
};

function productFilter(filter: Record<string, FilterValue>): AdminProductFilter {
  const [stockState] = filterEnum(filter, 'stockState', STOCK_STATES) ?? [];
  return {
    q: filterText(filter, 'q'),
    categories: filterEnum(filter, 'category', CATEGORY_SLUGS),
    active: filterBoolean(filter, 'active'),
    isFeatured: filterBoolean(filter, 'isFeatured'),
    lowStock: filterBoolean(filter, 'lowStock'),
    stockState: stockState as AdminProductFilter['stockState'],
  };
}

/** A react-admin list call as the catalogue's typed query (400 on anything malformed). */
const listQuery = (raw: ReactAdminListQuery) => readListQuery(raw, LIST, productFilter);

/** The spec's `status` of a product: on sale or withdrawn. */
const SPEC_FILTERS = { status: { active: { active: true }, inactive: { active: false } } };

@ApiTags('admin')
@Controller('admin/products')
@AdminOnly()
export class AdminProductsController {
  constructor(private readonly products: ProductsService) {}

  @Get()
  @ApiOperation({
    summary:
      'Products, withdrawn ones included (react-admin list; filter q, category, active, isFeatured, lowStock, stockState (out, low, in), id)',
  })
  @ApiAdminList('products', ProductDto)
  async list(@Query() query: AdminListQuery, @Res({ passthrough: true }) res: Response) {
    if (isSpecListQuery(query))
      return specList('products', query, SPEC_FILTERS, (q) => this.products.listForAdmin(listQuery(q)));
    return sendList(res, 'products', await this.products.listForAdmin(listQuery(query)));
  }

  @Put('bulk/active')
  @ApiOperation({
    summary: 'Put several products on sale or withdraw them (bulk activate/deactivate), audited per product',
  })
  @ApiOkResponse({ type: BulkActiveResponseDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  async setActive(@Body() body: BulkActiveDto, @CurrentUser() actor: AuthUser) {
    const ids = await this.products.setActive([...new Set(body.ids)], body.active, actor);
    return { success: true, updated: ids.length, ids };
  }

  @Get(':id')
  @ApiOperation({ summary: 'One product (withdrawn ones included)' })
  @ApiOkResponse({ type: ProductDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  async getOne(@Param('id') id: string) {
    return withId(await this.products.anyProduct(id));
  }

  @Post()
  @ApiOperation({ summary: 'Create a product (react-admin create: answers the record with id)' })
  @ApiBody({ type: ProductInputDto })
  @ApiCreatedResponse({ type: ProductDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  @ApiConflictResponse({ type: ErrorDto })
  async create(@Body(ProductFormPipe) input: ProductForm, @CurrentUser() actor: AuthUser) {
    return withId(await this.products.createProduct(input, actor));
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
  async update(
    @Param('id') id: string,
    @Body(ProductRecordPipe) record: ProductRecord,
    @CurrentUser() actor: AuthUser,
  ) {
    return withId(await this.products.updateProductRecord(id, record, actor));
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Withdraw a product from sale (react-admin delete: answers the record)' })
  @ApiOkResponse({ type: ProductDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  async remove(@Param('id') id: string, @CurrentUser() actor: AuthUser) {
    return withId(await this.products.deleteProduct(id, actor));
  }
}
