import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { CATEGORIES, SUB_CATEGORIES, toSantim, type ProductSort } from '@shop/shared';
import { FilterQuery, Model, SortOrder } from 'mongoose';
import { InvalidDataError, NotFoundError } from '../../common/errors/domain-error';
import { conflictOnDuplicate, escapeRegex, parseObjectId } from '../../common/mongo';

const DUPLICATE_SKU = 'A product with this SKU already exists';
import type { ListProductsQuery } from './dto/list-products.query';
import type { ProductInputDto } from './dto/product-input.dto';
import { Product, toProductView } from './schemas/product.schema';

const SORTS: Record<ProductSort, Record<string, SortOrder>> = {
  featured: { isFeatured: -1, rating: -1, createdAt: -1, _id: 1 },
  price_asc: { priceSantim: 1, _id: 1 },
  price_desc: { priceSantim: -1, _id: 1 },
  reviews: { reviewCount: -1, rating: -1, _id: 1 },
  newest: { createdAt: -1, _id: 1 },
};

export const PRODUCT_NOT_FOUND = 'Product not found';

@Injectable()
export class CatalogService {
  constructor(@InjectModel(Product.name) private readonly products: Model<Product>) {}

  /** The storefront listing: active products only, filtered, sorted and paginated. */
  async listProducts(query: ListProductsQuery) {
    const filter: FilterQuery<Product> = { active: true };
    if (query.search?.trim()) {
      const pattern = new RegExp(escapeRegex(query.search.trim()), 'i');
      filter.$or = [
        { name: pattern },
        { nameAm: pattern },
        { brand: pattern },
        { description: pattern },
        { ingredients: pattern },
      ];
    }
    if (query.minPrice !== undefined || query.maxPrice !== undefined) {
      filter.priceSantim = {};
      if (query.minPrice !== undefined) filter.priceSantim.$gte = toSantim(query.minPrice);
      if (query.maxPrice !== undefined) filter.priceSantim.$lte = toSantim(query.maxPrice);
    }
    if (query.category) filter.category = query.category;
    if (query.subCategory) filter.subCategory = query.subCategory;
    if (query.brand) filter.brand = new RegExp(`^${escapeRegex(query.brand)}$`, 'i');
    if (query.minRating !== undefined) filter.rating = { $gte: query.minRating };
    if (query.inStock) filter.stock = { $gt: 0 };

    const page = query.page ?? 1;
    const limit = query.limit;
    const [docs, totalProducts] = await Promise.all([
      this.products
        .find(filter)
        .sort(SORTS[query.sort ?? 'featured'])
        .skip((page - 1) * limit)
        .limit(limit)
        .lean()
        .exec(),
      this.products.countDocuments(filter).exec(),
    ]);
    return {
      products: docs.map(toProductView),
      totalPages: Math.ceil(totalProducts / limit),
      totalProducts,
      page,
    };
  }

  /** One product by id; unknown, malformed and inactive ids are all "not found" to the public. */
  async getProduct(id: string) {
    const doc = await this.products
      .findOne({ _id: parseObjectId(id, PRODUCT_NOT_FOUND), active: true })
      .lean()
      .exec();
    if (!doc) throw new NotFoundError(PRODUCT_NOT_FOUND);
    return toProductView(doc);
  }

  /** Categories with their English and Amharic names and active product counts. */
  async listCategories() {
    const counts = await this.products
      .aggregate<{ _id: string; count: number }>([
        { $match: { active: true } },
        { $group: { _id: '$category', count: { $sum: 1 } } },
      ])
      .exec();
    const byCategory = new Map(counts.map((c) => [c._id, c.count]));
    return CATEGORIES.map((category) => ({
      slug: category.slug,
      name: { ...category.name },
      subCategories: SUB_CATEGORIES.filter((s) => s.category === category.slug).map((s) => ({
        slug: s.slug,
        name: { ...s.name },
      })),
      productCount: byCategory.get(category.slug) ?? 0,
    }));
  }

  /** Maps the product form to the stored document: ETB to santim, countInStock and image aliases. */
  private toDocument(input: ProductInputDto): Partial<Product> {
    const stock = input.stock ?? input.countInStock;
    if (stock === undefined) throw new InvalidDataError('Validation failed', [{ field: 'stock', message: 'stock is required' }]);
    if (input.originalPrice !== undefined && input.originalPrice < input.price) {
      throw new InvalidDataError('Validation failed', [{ field: 'originalPrice', message: 'originalPrice must not be below price' }]);
    }
    const { price, originalPrice, image, images, countInStock: _alias, stock: _stock, ...rest } = input;
    return {
      ...rest,
      priceSantim: toSantim(price),
      ...(originalPrice !== undefined ? { originalPriceSantim: toSantim(originalPrice) } : {}),
      images: images ?? (image ? [image] : []),
      stock,
    };
  }

  async createProduct(input: ProductInputDto) {
    const doc = await conflictOnDuplicate(this.products.create(this.toDocument(input)), DUPLICATE_SKU);
    return toProductView(doc.toObject());
  }

  /** Replaces the product's form fields (PUT semantics); a product with an _id is updated. */
  async updateProduct(id: string, input: ProductInputDto) {
    const update = this.toDocument(input);
    const unset = input.originalPrice === undefined ? { $unset: { originalPriceSantim: 1 } } : {};
    const doc = await conflictOnDuplicate(
      this.products
        .findByIdAndUpdate(parseObjectId(id, PRODUCT_NOT_FOUND), { $set: update, ...unset }, { new: true, runValidators: true })
        .lean()
        .exec(),
      DUPLICATE_SKU,
    );
    if (!doc) throw new NotFoundError(PRODUCT_NOT_FOUND);
    return toProductView(doc);
  }

  /** Deleting withdraws the product from sale (active: false); orders and reviews keep referring to it. */
  async deleteProduct(id: string) {
    const doc = await this.products
      .findOneAndUpdate({ _id: parseObjectId(id, PRODUCT_NOT_FOUND), active: true }, { $set: { active: false } })
      .lean();
    if (!doc) throw new NotFoundError(PRODUCT_NOT_FOUND);
  }
}
