import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CATEGORY_SLUGS, CURRENCIES, SUB_CATEGORY_SLUGS } from '@shop/shared';
import { ProductOptionDto, ProductVariantDto } from './variant.dto';

export class SaleNameDto {
  @ApiProperty({ example: 'Timket week' }) en!: string;
  @ApiProperty({ example: 'የጥምቀት ሳምንት' }) am!: string;
}

/** The scheduled sale a product is sold at now (docs/decisions/0095). */
export class ProductPromotionDto {
  @ApiProperty() id!: string;
  @ApiProperty({ type: SaleNameDto }) name!: SaleNameDto;
  @ApiProperty({ type: String, format: 'date-time' }) endsAt!: string;
}

/** A product as the API answers it. Prices are ETB numbers with two decimals. */
export class ProductDto {
  @ApiProperty({ example: '665f1c2e9b1d8c0012345678' }) _id!: string;
  @ApiProperty({ example: 'Shea & Coffee Body Butter' }) name!: string;
  @ApiPropertyOptional({ example: 'የሺአ ቅቤ እና ቡና የሰውነት ቅባት' }) nameAm?: string;
  @ApiProperty({ example: 'Habesha Naturals' }) brand!: string;
  @ApiProperty() description!: string;
  @ApiPropertyOptional() descriptionAm?: string;
  @ApiPropertyOptional() richDescription?: string;
  @ApiProperty({ type: [String] }) ingredients!: string[];
  @ApiProperty({ type: [String] }) keyIngredients!: string[];
  @ApiProperty({ type: [String] }) benefits!: string[];
  @ApiPropertyOptional({ type: [String], description: 'Ingredients in Amharic' }) ingredientsAm?: string[];
  @ApiPropertyOptional({ type: [String], description: 'Benefits in Amharic' }) benefitsAm?: string[];
  @ApiProperty({ example: 650, description: 'Price in ETB' }) price!: number;
  @ApiPropertyOptional({ example: 800, description: 'Price before discount, in ETB' }) originalPrice?: number;
  @ApiProperty({ example: 19, description: 'Discount percent derived from originalPrice' }) discount!: number;
  @ApiPropertyOptional({
    example: 800,
    description: "The regular (or owner's compare-at) price in ETB when above price (docs/decisions/0095)",
  })
  compareAtPrice?: number;
  @ApiPropertyOptional({ type: () => ProductPromotionDto, description: 'The sale running now, if any' })
  promotion?: ProductPromotionDto;
  @ApiProperty({ enum: CURRENCIES, example: 'ETB' }) currency!: string;
  @ApiProperty({ type: [String], example: ['/api/assets/products/shea-coffee-body-butter.svg'] })
  images!: string[];
  @ApiProperty({ example: 24 }) stock!: number;
  @ApiProperty({ example: 24, description: 'Mirror of stock' }) countInStock!: number;
  @ApiProperty({ example: 5 }) lowStockThreshold!: number;
  @ApiPropertyOptional() restockThreshold?: number;
  @ApiPropertyOptional({ type: String, format: 'date-time' }) lastRestockDate?: string;
  @ApiPropertyOptional() promotionId?: string;
  @ApiProperty({ enum: CATEGORY_SLUGS }) category!: string;
  @ApiPropertyOptional({ enum: SUB_CATEGORY_SLUGS }) subCategory?: string;
  @ApiPropertyOptional({ example: '100 ml' }) size?: string;
  @ApiProperty({ type: [String] }) skinTypes!: string[];
  @ApiProperty() active!: boolean;
  @ApiProperty() isFeatured!: boolean;
  @ApiProperty({ example: 4.5 }) rating!: number;
  @ApiProperty({ example: 12 }) reviewCount!: number;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time' }) updatedAt!: string;
  @ApiPropertyOptional({ type: [ProductOptionDto], description: 'A product with variants only' })
  options?: ProductOptionDto[];
  @ApiPropertyOptional({
    type: [ProductVariantDto],
    description: "In the staff's order; a product with variants only",
  })
  variants?: ProductVariantDto[];
  @ApiPropertyOptional({ description: 'The first variant with stock, else the first' })
  defaultVariantId?: string;
}

export class FacetCountDto {
  @ApiProperty({ description: 'A category slug or a brand name', example: 'Buna Beauty' }) value!: string;
  @ApiProperty({ description: 'Active products with it among the other filters', example: 3 }) count!: number;
}

export class ListingFacetsDto {
  @ApiPropertyOptional({ type: [FacetCountDto], description: 'Every category, in the shop order' })
  category?: FacetCountDto[];
  @ApiPropertyOptional({
    type: [FacetCountDto],
    description: 'Brands with products, most first (at most 50), and every brand asked for',
  })
  brand?: FacetCountDto[];
}

export class ProductListDto {
  @ApiProperty({ type: [ProductDto] }) products!: ProductDto[];
  @ApiProperty({ example: 3 }) totalPages!: number;
  @ApiProperty({ example: 44 }) totalProducts!: number;
  @ApiProperty({ example: 1 }) page!: number;
  @ApiPropertyOptional({ type: ListingFacetsDto, description: 'Only when asked with `facets`' })
  facets?: ListingFacetsDto;
}

export class LocalizedNameDto {
  @ApiProperty({ example: 'Skincare' }) en!: string;
  @ApiProperty({ example: 'የቆዳ እንክብካቤ' }) am!: string;
}

export class SubCategoryDto {
  @ApiProperty({ enum: SUB_CATEGORY_SLUGS }) slug!: string;
  @ApiProperty({ type: LocalizedNameDto }) name!: LocalizedNameDto;
}

export class CategoryDto {
  @ApiProperty({ enum: CATEGORY_SLUGS }) slug!: string;
  @ApiProperty({ type: LocalizedNameDto }) name!: LocalizedNameDto;
  @ApiProperty({ type: [SubCategoryDto] }) subCategories!: SubCategoryDto[];
  @ApiProperty({ example: 18, description: 'Active products in the category' }) productCount!: number;
}

export class CategoryListDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ type: [CategoryDto] }) categories!: CategoryDto[];
}
