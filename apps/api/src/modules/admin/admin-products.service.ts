import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { CATEGORY_SLUGS, LOW_STOCK_THRESHOLD } from '@shop/shared';
import { FilterQuery, Model } from 'mongoose';
import type { AuthUser } from '../../common/auth/auth-user';
import { NotFoundError } from '../../common/errors/domain-error';
import { escapeRegex, parseObjectId } from '../../common/mongo';
import {
  filterBoolean,
  filterEnum,
  filterObjectIds,
  filterText,
  parseListQuery,
  type ReactAdminListQuery,
} from '../../common/react-admin';
import { AuditService } from '../audit/audit.service';
import { CatalogService, PRODUCT_NOT_FOUND } from '../catalog/catalog.service';
import type { ProductInputDto } from '../catalog/dto/product-input.dto';
import { toProductForm } from '../catalog/product-form';
import { Product, toProductView } from '../catalog/schemas/product.schema';

type ProductRecord = Product & { _id: unknown };
export const STOCK_STATES = ['out', 'low', 'in'] as const;
const toRecord = (doc: ProductRecord) => ({ id: String(doc._id), ...toProductView(doc) });

/** Products for the back office (active or withdrawn); writes go through CatalogService. */
@Injectable()
export class AdminProductsService {
  constructor(
    @InjectModel(Product.name) private readonly products: Model<Product>,
    private readonly catalog: CatalogService,
    private readonly audit: AuditService,
  ) {}

  /** react-admin list: filters q (name, brand, sku), category, active, isFeatured, lowStock, id. */
  async list(query: ReactAdminListQuery) {
    const { sort, skip, limit, filter } = parseListQuery(query, {
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
    });
    const where: FilterQuery<Product> = {};
    const ids = filterObjectIds(filter);
    if (ids) where._id = { $in: ids };
    const q = filterText(filter, 'q');
    if (q) {
      const pattern = new RegExp(escapeRegex(q), 'i');
      where.$or = [{ name: pattern }, { nameAm: pattern }, { brand: pattern }, { sku: pattern }];
    }
    const categories = filterEnum(filter, 'category', CATEGORY_SLUGS);
    if (categories) where.category = { $in: categories };
    const active = filterBoolean(filter, 'active');
    if (active !== undefined) where.active = active;
    const featured = filterBoolean(filter, 'isFeatured');
    if (featured !== undefined) where.isFeatured = featured;
    if (filterBoolean(filter, 'lowStock')) where.stock = { $lte: LOW_STOCK_THRESHOLD };
    // out: none left; low: 1 to the low-stock threshold; in: more than that
    const [state] = filterEnum(filter, 'stockState', STOCK_STATES) ?? [];
    if (state === 'out') where.stock = 0;
    if (state === 'low') where.stock = { $gt: 0, $lte: LOW_STOCK_THRESHOLD };
    if (state === 'in') where.stock = { $gt: LOW_STOCK_THRESHOLD };
    const [docs, total] = await Promise.all([
      this.products.find(where).sort(sort).skip(skip).limit(limit).lean().exec(),
      this.products.countDocuments(where).exec(),
    ]);
    return { records: docs.map(toRecord), skip, total };
  }

  async getOne(id: string) {
    return toRecord(await this.find(id));
  }

  async create(body: unknown, actor: AuthUser) {
    const input = await this.validate(body);
    const created = await this.catalog.createProduct(input);
    await this.audit.record(actor, {
      entity: 'product',
      entityId: String(created._id),
      action: 'product.create',
      to: { price: created.price, stock: created.stock },
    });
    return { id: String(created._id), ...created };
  }

  /** Updates from the whole record react-admin sends; CatalogService audits price and stock changes. */
  async update(id: string, body: unknown, actor: AuthUser) {
    const before = await this.find(id);
    const input = await this.validate(body, before.stock);
    const updated = await this.catalog.updateProduct(id, input, actor);
    return { id: String(before._id), ...updated };
  }

  /** Bulk activate/deactivate: one audit entry per product that changed. */
  async setActive(ids: string[], active: boolean, actor: AuthUser) {
    const changed = await this.catalog.setActive([...new Set(ids)], active);
    for (const id of changed) {
      await this.audit.record(actor, {
        entity: 'product',
        entityId: id,
        action: 'product.active',
        from: !active,
        to: active,
      });
    }
    return { success: true, updated: changed.length, ids: changed };
  }

  /** Withdraws the product from sale (CatalogService's soft delete) and answers the record. */
  async remove(id: string, actor: AuthUser) {
    await this.catalog.deleteProduct(id);
    const after = await this.find(id);
    await this.audit.record(actor, {
      entity: 'product',
      entityId: String(after._id),
      action: 'product.delete',
      from: true,
      to: false,
    });
    return toRecord(after);
  }

  private async find(id: string) {
    const doc = await this.products.findById(parseObjectId(id, PRODUCT_NOT_FOUND)).lean().exec();
    if (!doc) throw new NotFoundError(PRODUCT_NOT_FOUND);
    return doc;
  }

  /** The product form rules of the catalogue, after dropping the record's read-only fields. */
  private validate(body: unknown, storedStock?: number): Promise<ProductInputDto> {
    return toProductForm(body, storedStock);
  }
}
