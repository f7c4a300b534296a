import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { CatalogController } from './catalog.controller';
import { ListingsService } from './listings.service';
import { ProductSalesService } from './product-sales.service';
import { ProductsService } from './products.service';
import { Product, ProductSchema } from './schemas/product.schema';
import { SearchIndex } from './search-index';
import { SuggestionsService } from './suggestions.service';
import { StockService } from './stock.service';

/**
 * The catalogue: products, their stock and the public listing, each a service of one concern;
 * other modules inject the one they need. Its reads that may be answered from a cache
 * go through `CATALOGUE_READS`, which the (global) cache module provides.
 */
@Module({
  imports: [MongooseModule.forFeature([{ name: Product.name, schema: ProductSchema }])],
  controllers: [CatalogController],
  providers: [
    ProductsService,
    StockService,
    ListingsService,
    SearchIndex,
    SuggestionsService,
    ProductSalesService,
  ],
  exports: [ProductsService, StockService, ListingsService, SearchIndex, ProductSalesService],
})
export class CatalogModule {}
