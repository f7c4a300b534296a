import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorDto } from '../../common/error.dto';
import { CatalogService } from './catalog.service';
import { CategoryListDto, ProductDto, ProductListDto } from './dto/product.dto';
import { ListProductsQuery } from './dto/list-products.query';

@ApiTags('catalogue')
@Controller()
export class CatalogController {
  constructor(private readonly catalog: CatalogService) {}

  @Get('products')
  @ApiOperation({ summary: 'List active products (paginated, filtered, sorted)' })
  @ApiOkResponse({ type: ProductListDto })
  listProducts(@Query() query: ListProductsQuery) {
    return this.catalog.listProducts(query);
  }

  @Get('products/:id')
  @ApiOperation({ summary: 'One product (the document itself)' })
  @ApiOkResponse({ type: ProductDto })
  @ApiNotFoundResponse({ type: ErrorDto, description: 'Unknown or malformed id: "Product not found"' })
  getProduct(@Param('id') id: string) {
    return this.catalog.getProduct(id);
  }

  @Get('categories')
  @ApiOperation({ summary: 'Categories and sub-categories with English and Amharic names' })
  @ApiOkResponse({ type: CategoryListDto })
  async listCategories() {
    return { success: true, categories: await this.catalog.listCategories() };
  }
}
