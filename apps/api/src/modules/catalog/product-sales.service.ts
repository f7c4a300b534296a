import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isValidObjectId, Types, type FilterQuery, type Model } from 'mongoose';
import { Changes } from '../../common/changes';
import { saleNow, type ProductSale } from './sale-price';
import { Product } from './schemas/product.schema';

/** A sale as the promotions module hands it over: its rule, window and targets. */
export interface SaleRule extends ProductSale {
  productIds: readonly string[];
  categories: readonly string[];
}

type SaleFields = Pick<Product, 'priceSantim' | 'category' | 'sales' | 'saleNow'> & { _id: Types.ObjectId };

const sameSales = (a: readonly ProductSale[] | undefined, b: readonly ProductSale[]) =>
  JSON.stringify(a ?? []) === JSON.stringify(b);

/**
 * The products `apply` must look at: those the rules target, and those that carry a sale now (whose
 * sale may have gone). Any other product has no sale and gets none, so it is never read: with 100,000
 * products and a sale on one category, the reload every 30 s reads that category, not the catalogue.
 * Each clause has its index (`_id`, `category`, `sales.promotion`, `saleNow`).
 */
export function saleCandidates(rules: readonly SaleRule[]): FilterQuery<Product> {
  const ids = [...new Set(rules.flatMap((r) => r.productIds))].filter((id) => isValidObjectId(id));
  const categories = [...new Set(rules.flatMap((r) => r.categories))];
  return {
    $or: [
      ...(ids.length ? [{ _id: { $in: ids.map((id) => new Types.ObjectId(id)) } }] : []),
      ...(categories.length ? [{ category: { $in: categories } }] : []),
      { 'sales.promotion': { $exists: true } },
      { saleNow: { $exists: true, $nin: [null, ''] } },
    ],
  };
}

/**
 * Writes the scheduled sales onto the products they target (docs/decisions/0095): each product
 * carries the rules of its sales (coming, running, and ended in the last 30 days, for the carts'
 * notices) and the id of the one running now
 * (`saleNow`). Only products whose fields differ are written, each through the model (its
 * `updatedAt` moves, so every cache of its answer sees a new stamp), announced as a product change.
 */
@Injectable()
export class ProductSalesService {
  constructor(
    @InjectModel(Product.name) private readonly products: Model<Product>,
    private readonly changes: Changes,
  ) {}

  /** Ids of the products among `ids` that exist (any state). */
  async existing(ids: readonly Types.ObjectId[]): Promise<Set<string>> {
    const found = await this.products
      .find({ _id: { $in: ids } }, { _id: 1 })
      .lean()
      .exec();
    return new Set(found.map((p) => String(p._id)));
  }

  /** The lowest regular price among the targets (products and categories), for a fixed amount's check. */
  async lowestPrice(
    productIds: readonly Types.ObjectId[],
    categories: readonly string[],
  ): Promise<number | undefined> {
    const [cheapest] = await this.products
      .find({ $or: [{ _id: { $in: productIds } }, { category: { $in: categories } }] }, { priceSantim: 1 })
      .sort({ priceSantim: 1 })
      .limit(1)
      .lean()
      .exec();
    return cheapest?.priceSantim;
  }

  /** Makes every product carry exactly the sales of `rules` that target it and have not ended at `now`. */
  async apply(rules: readonly SaleRule[], now: number): Promise<number> {
    // ended sales stay a while (the caller passes those of the last SALE_MEMORY_MS): a cart line says its sale ended
    const live = rules;
    const docs = await this.products
      .find(saleCandidates(rules), { priceSantim: 1, category: 1, sales: 1, saleNow: 1 })
      .lean<SaleFields[]>()
      .exec();
    const planned = new Map<string, { doc: SaleFields; sales: ProductSale[]; running: string }>();
    for (const doc of docs) {
      const id = String(doc._id);
      const sales: ProductSale[] = live
        .filter(
          (r) => r.productIds.includes(id) || (doc.category != null && r.categories.includes(doc.category)),
        )
        .map(({ promotion, kind, value, startsAt, endsAt, nameEn, nameAm }) => ({
          promotion,
          kind,
          value,
          startsAt: new Date(startsAt),
          endsAt: new Date(endsAt),
          nameEn,
          ...(nameAm ? { nameAm } : {}),
        }));
      const running = saleNow({ priceSantim: doc.priceSantim, sales }, now)?.sale.promotion ?? '';
      if (sameSales(doc.sales, sales) && (doc.saleNow ?? '') === running) continue;
      planned.set(id, { doc, sales, running });
    }
    const changed = [...planned.keys()];
    if (!changed.length) return 0;
    await this.changes.around({ kind: 'product', ids: changed }, async () => {
      for (const { doc, sales, running } of planned.values()) {
        await this.products
          .updateOne(
            { _id: doc._id },
            sales.length
              ? { $set: { sales, saleNow: running } }
              : { $unset: { sales: 1 }, $set: { saleNow: running } },
          )
          .exec();
      }
    });
    return changed.length;
  }
}
