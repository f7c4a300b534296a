import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { OrderNumbersService } from '../modules/orders/order-numbers.service';
import { priceOrder, toSantim, type ShippingMethod } from '@shop/shared';
import * as bcrypt from 'bcryptjs';
import { Model, Types } from 'mongoose';
import { Changes } from '../common/changes';
import { modelDocument, type DocumentInput, type StoredDocument } from '../common/model-document';
import { APP_CONFIG, type AppConfig } from '../config';
import { Product } from '../modules/catalog/schemas/product.schema';
import { Order } from '../modules/orders/schemas/order.schema';
import { ReviewsService } from '../modules/reviews/reviews.service';
import { Review } from '../modules/reviews/schemas/review.schema';
import { productSearchTerms } from '../modules/catalog/search-terms';
import { User } from '../modules/users/schemas/user.schema';
import { PromotionsService } from '../modules/promotions/promotions.service';
import { SEED_PRODUCTS, SEED_VARIANTS, type SeedProduct } from './data/products';
import { productFieldsOf } from '../modules/catalog/variants';
import { SEED_CUSTOMER_NAMES, SEED_REVIEW_TEXTS } from './data/reviews';

/** Development accounts; the README states them. Never created in production unless asked. */
export const DEMO_ACCOUNTS = {
  admin: { name: 'Selam Admin', email: 'admin@beauty.et', password: 'Admin@12345', role: 'admin' },
  customer: {
    name: 'Hanna Customer',
    email: 'customer@beauty.et',
    password: 'Customer@123',
    role: 'customer',
  },
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;
const SEED_ORDER_COUNT = 42;
const SEED_ORDER_DAYS = 14;
const BCRYPT_ROUNDS = 10;

/** A small deterministic PRNG so that the seed is the same on every machine. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A document built as the model would store it (common/model-document), as an upsert's `$setOnInsert`:
 * without its `_id`, which the server gives the inserted document as on any upsert.
 */
function onInsert<T>(doc: StoredDocument<T>): Omit<StoredDocument<T>, '_id'> {
  const { _id: _given, ...fields } = doc;
  return fields;
}

function emailFor(name: string): string {
  return `${name.toLowerCase().replace(/[^a-z]+/g, '.')}@example.et`;
}

/** A demo product's fields as the seed stores it (through `modelDocument`, which adds the model's defaults). */
export function seedProductFields(p: SeedProduct, now: Date): DocumentInput<Product> {
  const createdAt = new Date(now.getTime() - p.daysSinceCreated * DAY_MS);
  return {
    sku: p.key,
    name: p.name,
    nameAm: p.nameAm,
    brand: p.brand,
    description: p.description,
    descriptionAm: p.descriptionAm,
    ingredients: p.ingredients,
    ingredientsAm: p.ingredientsAm,
    searchTerms: productSearchTerms(p),
    keyIngredients: p.keyIngredients,
    benefits: p.benefits,
    benefitsAm: p.benefitsAm,
    priceSantim: toSantim(p.price),
    originalPriceSantim: p.originalPrice ? toSantim(p.originalPrice) : undefined,
    // three views (apps/api/scripts/product-art.mjs): the product, its texture, its key ingredients
    images: ['', '-texture', '-ingredients'].map((view) => `/api/assets/products/${p.key}${view}.svg`),
    stock: p.stock,
    ...seedVariantFields(p.key),
    category: p.category,
    subCategory: p.subCategory || undefined,
    size: p.size,
    skinTypes: p.skinTypes,
    isFeatured: p.isFeatured,
    createdAt,
  };
}

/**
 * A demo product's options and variants (docs/decisions/0098-product-variants.md), with its stock the
 * variants' sum and its price the default variant's; nothing for a product without variants.
 */
export function seedVariantFields(
  key: string,
): Partial<Pick<Product, 'options' | 'variants' | 'stock' | 'priceSantim'>> {
  const seeded = SEED_VARIANTS[key];
  if (!seeded) return {};
  const variants = seeded.variants.map((v) => ({
    _id: new Types.ObjectId(),
    sku: `${key}-${v.suffix}`,
    options: v.options,
    priceSantim: toSantim(v.price),
    ...(v.originalPrice ? { originalPriceSantim: toSantim(v.originalPrice) } : {}),
    stock: v.stock,
    ...(v.swatch ? { swatch: v.swatch } : {}),
  }));
  const { stock, priceSantim } = productFieldsOf(variants);
  return {
    options: seeded.options.map((o) => ({ ...o, values: [...o.values] })),
    variants,
    stock,
    priceSantim,
  };
}

export interface SeedReport {
  products: number;
  users: number;
  reviews: number;
  orders: number;
}

@Injectable()
export class SeedService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Seed');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectModel(Product.name) private readonly products: Model<Product>,
    @InjectModel(User.name) private readonly users: Model<User>,
    @InjectModel(Review.name) private readonly reviews: Model<Review>,
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    private readonly orderNumbers: OrderNumbersService,
    private readonly reviewsService: ReviewsService,
    private readonly changes: Changes,
    private readonly promotions: PromotionsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.seedOnEmpty) return;
    if ((await this.products.estimatedDocumentCount()) > 0) return;
    this.logger.log('Empty catalogue: seeding demo data');
    const report = await this.seed();
    this.logger.log(
      `Seeded ${report.products} products, ${report.users} users, ${report.reviews} reviews, ${report.orders} orders`,
    );
  }

  /** Idempotent: running it again adds what is missing and never duplicates or overwrites edits. */
  async seed(now = new Date()): Promise<SeedReport> {
    await Promise.all([this.products.init(), this.users.init(), this.reviews.init(), this.orders.init()]);
    const users = await this.seedUsers();
    const products = await this.seedProducts(now);
    const reviews = await this.seedReviews(users.reviewers, products, now);
    const orders = await this.seedOrders(users.customers, products, now);
    if (this.config.seedDemoSale) await this.seedSale(now);
    return { products: products.length, users: users.all, reviews, orders };
  }

  /** One running sale so the shop shows one (SEED_DEMO_SALE; on in development): added once, by its name. */
  private async seedSale(now: Date): Promise<void> {
    const day = 86_400_000;
    await this.promotions.createOnce({
      name: { en: 'Timket week', am: 'የጥምቀት ሳምንት' },
      kind: 'percent',
      value: 20,
      categories: ['skincare'],
      startsAt: new Date(now.getTime() - day),
      endsAt: new Date(now.getTime() + 14 * day),
    });
  }

  private async seedUsers() {
    const accounts = [
      DEMO_ACCOUNTS.admin,
      DEMO_ACCOUNTS.customer,
      ...SEED_CUSTOMER_NAMES.map((name) => ({
        name,
        email: emailFor(name),
        password: 'Customer@123',
        role: 'customer',
      })),
    ];
    const existing = new Set(
      (await this.users.find({ email: { $in: accounts.map((a) => a.email) } }, { email: 1 }).lean()).map(
        (u) => u.email,
      ),
    );
    const missing = accounts.filter((a) => !existing.has(a.email));
    const hashes = await Promise.all(missing.map((a) => bcrypt.hash(a.password, BCRYPT_ROUNDS)));
    if (missing.length) {
      await this.users.insertMany(
        missing.map((a, i) => ({
          name: a.name,
          email: a.email,
          role: a.role,
          passwordHash: hashes[i],
          isActive: true,
        })),
      );
    }
    const all = await this.users.find({ email: { $in: accounts.map((a) => a.email) } }).lean();
    const byEmail = new Map(all.map((u) => [u.email, u]));
    const customers = accounts.filter((a) => a.role === 'customer').map((a) => byEmail.get(a.email)!);
    const reviewers = SEED_CUSTOMER_NAMES.map((n) => byEmail.get(emailFor(n))!);
    return { all: all.length, customers, reviewers };
  }

  private async seedProducts(now: Date) {
    const ops = SEED_PRODUCTS.map((p) => ({
      updateOne: {
        filter: { sku: p.key },
        update: { $setOnInsert: onInsert(modelDocument(this.products, seedProductFields(p, now))) },
        upsert: true,
      },
    }));
    await this.products.collection.bulkWrite(ops, { ordered: false });
    // Demo products seeded before the Amharic ingredient and benefit lists existed get them once.
    await this.products.collection.bulkWrite(
      SEED_PRODUCTS.map((p) => ({
        updateOne: {
          filter: { sku: p.key, ingredientsAm: { $exists: false } },
          update: { $set: { ingredientsAm: p.ingredientsAm, benefitsAm: p.benefitsAm } },
        },
      })),
      { ordered: false },
    );
    // Demo products seeded before variants existed get theirs once.
    await this.products.collection.bulkWrite(
      Object.keys(SEED_VARIANTS).map((key) => ({
        updateOne: {
          filter: { sku: key, variants: { $exists: false } },
          update: { $set: seedVariantFields(key) },
        },
      })),
      { ordered: false },
    );
    // written through the driver: the caches hear of it as of any product change
    this.changes.publish({ kind: 'product' });
    return this.products
      .find({ sku: { $in: SEED_PRODUCTS.map((p) => p.key) } })
      .sort({ createdAt: 1, _id: 1 })
      .lean();
  }

  private async seedReviews(
    reviewers: { _id: Types.ObjectId }[],
    products: { _id: Types.ObjectId }[],
    now: Date,
  ): Promise<number> {
    const random = mulberry32(2026);
    const ops = [];
    let text = 0;
    for (const product of products) {
      const count = Math.floor(random() * 5);
      const start = Math.floor(random() * reviewers.length);
      for (let i = 0; i < count; i++) {
        const review = SEED_REVIEW_TEXTS[text++ % SEED_REVIEW_TEXTS.length];
        const user = reviewers[(start + i) % reviewers.length];
        const createdAt = new Date(now.getTime() - Math.floor(random() * 60 * DAY_MS));
        ops.push({
          updateOne: {
            filter: { user: user._id, product: product._id },
            update: {
              $setOnInsert: onInsert(
                modelDocument(this.reviews, {
                  user: user._id,
                  product: product._id,
                  rating: review.rating,
                  comment: review.comment,
                  createdAt,
                }),
              ),
            },
            upsert: true,
          },
        });
      }
    }
    if (ops.length) await this.reviews.collection.bulkWrite(ops, { ordered: false });
    // the same rule as a review posted in the shop (ReviewsService -> ProductsService.recomputeRating)
    await this.reviewsService.recomputeProductRatings(products.map((p) => p._id));
    return this.reviews.countDocuments({ product: { $in: products.map((p) => p._id) } });
  }

  private async seedOrders(
    customers: { _id: Types.ObjectId; name: string; email?: string }[],
    products: {
      _id: Types.ObjectId;
      name: string;
      nameAm?: string;
      priceSantim: number;
      images: string[];
    }[],
    now: Date,
  ): Promise<number> {
    const random = mulberry32(14);
    const methods: ShippingMethod[] = ['standard', 'standard', 'express', 'pickup'];
    const cities = [
      { city: 'Addis Ababa', state: 'Addis Ababa', zipCode: '1000' },
      { city: 'Bahir Dar', state: 'Amhara', zipCode: '6000' },
      { city: 'Hawassa', state: 'Sidama', zipCode: '1050' },
      { city: 'Mekelle', state: 'Tigray', zipCode: '2310' },
      { city: 'Adama', state: 'Oromia', zipCode: '1888' },
      { city: 'Dire Dawa', state: 'Dire Dawa', zipCode: '3000' },
    ];
    const ops = [];
    for (let n = 0; n < SEED_ORDER_COUNT; n++) {
      const customer = customers[Math.floor(random() * customers.length)];
      const age = Math.floor(random() * SEED_ORDER_DAYS * DAY_MS);
      const createdAt = new Date(now.getTime() - age);
      const lineCount = 1 + Math.floor(random() * 3);
      const chosen = new Set<number>();
      while (chosen.size < lineCount) chosen.add(Math.floor(random() * products.length));
      const orderItems = [...chosen].map((index) => {
        const product = products[index];
        return {
          product: product._id,
          name: product.name,
          nameAm: product.nameAm || undefined,
          image: product.images[0],
          quantity: 1 + Math.floor(random() * 3),
          priceAtPurchaseSantim: product.priceSantim,
        };
      });
      const shippingMethod = methods[Math.floor(random() * methods.length)];
      const totals = priceOrder(
        orderItems.map((i) => ({ unitPrice: i.priceAtPurchaseSantim, quantity: i.quantity })),
        shippingMethod,
      );
      const days = age / DAY_MS;
      const status =
        n % 13 === 5
          ? 'cancelled'
          : days > 7
            ? 'delivered'
            : days > 4
              ? 'shipped'
              : days > 2
                ? 'processing'
                : 'pending';
      const paid = status !== 'cancelled' && (status !== 'pending' || n % 2 === 0);
      const history = ['pending', 'processing', 'shipped', 'delivered'];
      const reached =
        status === 'cancelled' ? ['pending', 'cancelled'] : history.slice(0, history.indexOf(status) + 1);
      const address = cities[n % cities.length];
      ops.push({
        updateOne: {
          filter: { user: customer._id, idempotencyKey: `seed-order-${n}` },
          update: {
            $setOnInsert: onInsert(
              modelDocument(this.orders, {
                user: customer._id,
                customer: { name: customer.name, email: customer.email },
                orderItems,
                shippingAddress: {
                  street: `Bole Road, House ${100 + n}`,
                  ...address,
                  phone: `+2519${String(11000000 + n * 7919).slice(0, 8)}`,
                  landmark: 'Near Edna Mall',
                },
                shippingMethod,
                paymentMethod: 'chapa',
                subtotalSantim: totals.subtotal,
                shippingCostSantim: totals.shippingCost,
                taxSantim: totals.tax,
                totalAmountSantim: totals.totalAmount,
                status,
                paymentStatus: paid ? 'paid' : 'unpaid',
                paidAt: paid ? new Date(createdAt.getTime() + 5 * 60 * 1000) : undefined,
                trackingNumber:
                  status === 'shipped' || status === 'delivered' ? `ET${100000 + n}` : undefined,
                statusHistory: reached.map((s, i) => ({
                  status: s,
                  at: new Date(createdAt.getTime() + i * 6 * 3600 * 1000),
                })),
                idempotencyKey: `seed-order-${n}`,
                createdAt,
              }),
            ),
          },
          upsert: true,
        },
      });
    }
    await this.orders.collection.bulkWrite(ops, { ordered: false });
    await this.orderNumbers.backfill();
    this.changes.publish({ kind: 'order' });
    return this.orders.countDocuments({ idempotencyKey: /^seed-order-/ });
  }
}
