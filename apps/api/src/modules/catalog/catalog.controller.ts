import { Body, Controller, Delete, Get, Header, Param, Post, Put, Query } from '@nestjs/common';
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
import { CurrentUser, type AuthUser } from '../../common/auth/auth-user';
import { AdminOnly } from '../../common/auth/jwt-auth.guard';
import { ErrorDto } from '../../common/error.dto';
import { CategoryListDto, ProductDto, ProductListDto } from './dto/product.dto';
import { ListProductsQuery } from './dto/list-products.query';
import { ProductInputDto, ProductResponseDto } from './dto/product-input.dto';
import { DEFAULT_SUGGESTIONS, SuggestionsDto, SuggestionsQuery } from './dto/suggestions.dto';
import { ListingsService } from './listings.service';
import { SuggestionsService } from './suggestions.service';
import { ProductFormPipe, type ProductForm } from './product-form';
import { ProductsService } from './products.service';
import { MessageResponseDto } from '../auth/dto/auth.dto';

@ApiTags('catalogue')
@Controller()
export class CatalogController {
  constructor(
    private readonly products: ProductsService,
    private readonly listings: ListingsService,
    private readonly suggest: SuggestionsService,
  ) {}

  @Get('products')
  @ApiOperation({ summary: 'List active products (paginated, filtered, sorted)' })
  @ApiOkResponse({ type: ProductListDto })
  @ApiBadRequestResponse({
    type: ErrorDto,
    description: 'Invalid query values (field errors); limit at most 100',
  })
  listProducts(@Query() query: ListProductsQuery) {
    return this.listings.listProducts(query);
  }

  @Get('products/suggestions')
  @Header('Cache-Control', 'public, max-age=60')
  @ApiOperation({
    summary: 'Predictive search: the top products, categories and brands matching what the shopper typed',
  })
  @ApiOkResponse({ type: SuggestionsDto })
  @ApiBadRequestResponse({
    type: ErrorDto,
    description: 'q longer than 100 characters, limit outside 1-10, lang not en or am',
  })
  suggestions(@Query() query: SuggestionsQuery): Promise<SuggestionsDto> {
    return this.suggest.suggest(query.q ?? '', query.limit ?? DEFAULT_SUGGESTIONS, query.lang ?? 'en');
  }

  @Get('products/:id')
  @ApiOperation({ summary: 'One product (the document itself)' })
  @ApiOkResponse({ type: ProductDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'Unknown or malformed id: "Product not found"' })
  getProduct(@Param('id') id: string) {
    return this.products.getProduct(id);
  }

  @Get('categories')
  @ApiOperation({ summary: 'Categories and sub-categories with English and Amharic names' })
  @ApiOkResponse({ type: CategoryListDto })
  async listCategories() {
    return { success: true, categories: await this.listings.listCategories() };
  }

  @Post('products')
  @AdminOnly()
  @ApiOperation({ summary: 'Create a product (admin)' })
  @ApiBody({
    type: ProductInputDto,
    description: 'The product form; read-only fields of a product record (_id, rating...) are ignored',
  })
  @ApiCreatedResponse({ type: ProductResponseDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  @ApiConflictResponse({ type: ErrorDto })
  async createProduct(@Body(ProductFormPipe) input: ProductForm, @CurrentUser() user: AuthUser) {
    return { success: true, product: await this.products.createProduct(input, user) };
  }

  @Put('products/:id')
  @AdminOnly()
  @ApiOperation({ summary: 'Update a product with the whole form (admin)' })
  @ApiOkResponse({ type: ProductResponseDto })
  @ApiBadRequestResponse({ type: ErrorDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  @ApiBody({
    type: ProductInputDto,
    description: 'The whole product form, or the product as answered (read-only fields ignored)',
  })
  async updateProduct(
    @Param('id') id: string,
    @Body(ProductFormPipe) input: ProductForm,
    @CurrentUser() user: AuthUser,
  ) {
    return { success: true, product: await this.products.updateProduct(id, input, user) };
  }

  @Delete('products/:id')
  @AdminOnly()
  @ApiOperation({ summary: 'Withdraw a product from sale (admin)' })
  @ApiOkResponse({ type: MessageResponseDto })
  @ApiNotFoundResponse({ type: ErrorDto })
  async deleteProduct(@Param('id') id: string, @CurrentUser() user: AuthUser) {
    await this.products.deleteProduct(id, user);
    return { success: true, message: 'Product deleted successfully' };
  }
}
