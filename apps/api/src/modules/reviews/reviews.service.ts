import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { FilterQuery, Model, Types } from 'mongoose';
import type { AuthUser } from '../../common/auth/auth-user';
import { DomainError, InvalidDataError, NotFoundError } from '../../common/errors/domain-error';
import { Changes } from '../../common/changes';
import { findPage, type ListPage, type ListQuery } from '../../common/list-query';
import { conflictOnDuplicate, escapeRegex, parseObjectId } from '../../common/mongo';
import { ProductsService } from '../catalog/products.service';
import { OrderQueries } from '../orders/order-queries.service';
import { AccountsService } from '../users/accounts.service';
import {
  MAX_RECENT_REVIEWS,
  type CreateReviewDto,
  type ProductReviewsQuery,
  type UpdateReviewDto,
} from './dto/review.dto';
import { Review } from './schemas/review.schema';

export const REVIEW_NOT_FOUND = 'Review not found';
export const DUPLICATE_REVIEW = 'You have already reviewed this product';

type ReviewRecord = Review & { _id: Types.ObjectId };
type ProductSummary = { _id: Types.ObjectId; name: string; nameAm?: string; images?: string[] };

/** The back office's review list filter, as the admin module parsed it. */
export interface AdminReviewFilter {
  /** Text in the title or comment. */
  q?: string;
  /** Reviews of these products, or by these users (24-hex ids). */
  products?: string[];
  users?: string[];
  ratings?: number[];
  verified?: boolean;
}

function commentOf(dto: { comment?: string; text?: string }, required: boolean): string | undefined {
  const raw = dto.comment ?? dto.text;
  if (raw === undefined && !required) return undefined;
  const comment = raw?.trim();
  if (!comment)
    throw new InvalidDataError(
      'Validation failed',
      [{ field: 'comment', message: 'comment is required' }],
      'VALIDATION_FAILED',
    );
  return comment;
}

@Injectable()
export class ReviewsService {
  constructor(
    @InjectModel(Review.name) private readonly reviews: Model<Review>,
    private readonly products: ProductsService,
    private readonly users: AccountsService,
    private readonly orders: OrderQueries,
    private readonly changes: Changes,
  ) {}

  private activeProduct(id: string) {
    return this.products.activeProduct(id);
  }

  /** Reviews with their author's name and product's name, as the storefront shows them. */
  private async toViews(reviews: ReviewRecord[], known?: ProductSummary) {
    const userIds = [...new Set(reviews.map((r) => String(r.user)))].map((id) => new Types.ObjectId(id));
    const productIds = [...new Set(reviews.map((r) => String(r.product)))].map(
      (id) => new Types.ObjectId(id),
    );
    const [userById, products] = await Promise.all([
      this.users.namesByIds(userIds),
      known ? [known] : this.products.productsByIds(productIds, { name: 1, nameAm: 1, images: 1 }),
    ]);
    const productById = new Map((products as ProductSummary[]).map((p) => [String(p._id), p]));
    return reviews.map((r) => {
      const product = productById.get(String(r.product));
      return {
        _id: String(r._id),
        // a deleted account keeps its reviews, shown without a name
        user: { _id: String(r.user), name: userById.get(String(r.user))?.name ?? 'Former customer' },
        product: {
          _id: String(r.product),
          name: product?.name ?? '',
          ...(product?.nameAm ? { nameAm: product.nameAm } : {}),
          ...(product?.images?.[0] ? { image: product.images[0] } : {}),
        },
        rating: r.rating,
        ...(r.title ? { title: r.title } : {}),
        comment: r.comment,
        text: r.comment,
        verified: !!r.verified,
        createdAt: r.createdAt,
        updatedAt: r.updatedAt,
      };
    });
  }

  async listForProduct(productId: string, query: ProductReviewsQuery) {
    const product = await this.activeProduct(productId);
    const filter = { product: product._id };
    const [docs, total] = await Promise.all([
      this.reviews
        .find(filter)
        .sort({ createdAt: -1, _id: -1 })
        .skip((query.page - 1) * query.limit)
        .limit(query.limit)
        .lean(),
      this.reviews.countDocuments(filter),
    ]);
    return {
      reviews: await this.toViews(docs, product),
      rating: product.rating ?? 0,
      reviewCount: product.reviewCount ?? 0,
      page: query.page,
      totalPages: Math.ceil(total / query.limit),
    };
  }

  /** The newest reviews of products still on sale (the home page testimonials). */
  async recent(limit: number) {
    const wanted = Math.min(limit, MAX_RECENT_REVIEWS);
    const docs = await this.reviews
      .find()
      .sort({ createdAt: -1, _id: -1 })
      .limit(wanted * 3)
      .lean();
    const active = new Set(
      (
        await this.products.productsByIds(
          docs.map((d) => d.product),
          { active: 1 },
        )
      )
        .filter((p) => p.active)
        .map((p) => String(p._id)),
    );
    return this.toViews(docs.filter((d) => active.has(String(d.product))).slice(0, wanted));
  }

  // ---- The back office ----

  /** The back office list: newest first unless sorted otherwise. */
  listForAdmin(query: ListQuery<AdminReviewFilter>): Promise<ListPage<Record<string, unknown>>> {
    const { filter } = query;
    const where: FilterQuery<Review> = {};
    if (filter.q) {
      const pattern = new RegExp(escapeRegex(filter.q), 'i');
      where.$or = [{ title: pattern }, { comment: pattern }];
    }
    if (filter.products) where.product = { $in: filter.products.map((id) => new Types.ObjectId(id)) };
    if (filter.users) where.user = { $in: filter.users.map((id) => new Types.ObjectId(id)) };
    if (filter.ratings) where.rating = { $in: filter.ratings };
    if (filter.verified !== undefined) where.verified = filter.verified;
    return findPage(this.reviews, where, query, (docs) => this.toAdminRecords(docs));
  }

  async anyReview(id: string) {
    const [record] = await this.toAdminRecords([await this.findReview(id)]);
    return record;
  }

  /** Deletes a review from the back office (rating and reviewCount recomputed) and answers the record. */
  async removeForAdmin(actor: AuthUser, id: string) {
    const record = await this.anyReview(id);
    await this.remove(actor, id);
    return record;
  }

  private async findReview(id: string): Promise<ReviewRecord> {
    const doc = await this.reviews
      .findById(parseObjectId(id, REVIEW_NOT_FOUND, 'REVIEW_NOT_FOUND'))
      .lean()
      .exec();
    if (!doc) throw new NotFoundError(REVIEW_NOT_FOUND, 'REVIEW_NOT_FOUND');
    return doc as ReviewRecord;
  }

  /** Each review with its author's and product's names, looked up once per page. */
  private async toAdminRecords(reviews: ReviewRecord[]) {
    const [users, products] = await Promise.all([
      this.users.namesByIds(reviews.map((r) => r.user)),
      this.products.productsByIds(
        reviews.map((r) => r.product),
        { name: 1 },
      ),
    ]);
    const productById = new Map(products.map((p) => [String(p._id), p]));
    return reviews.map((r) => {
      const user = users.get(String(r.user));
      return {
        id: String(r._id),
        _id: String(r._id),
        user: {
          _id: String(r.user),
          name: user?.name ?? 'Former customer',
          ...(user ? { email: user.email } : {}),
        },
        product: { _id: String(r.product), name: productById.get(String(r.product))?.name ?? '' },
        rating: r.rating,
        ...(r.title ? { title: r.title } : {}),
        comment: r.comment,
        verified: !!r.verified,
        createdAt: r.createdAt,
        updatedAt: r.updatedAt,
      };
    });
  }

  /** One review per customer per product; verified when the author has a delivered order with it. */
  async create(author: AuthUser, productId: string, dto: CreateReviewDto) {
    const product = await this.activeProduct(productId);
    const comment = commentOf(dto, true)!;
    const userId = new Types.ObjectId(author.id);
    if (await this.reviews.exists({ user: userId, product: product._id }))
      throw new DomainError('CONFLICT', DUPLICATE_REVIEW, undefined, 'DUPLICATE_REVIEW');
    const verified = await this.hasDeliveredOrder(userId, product._id);
    const title = dto.title?.trim();
    const { doc, stats } = await this.reviewChange(product._id, async () => {
      const created = await conflictOnDuplicate(
        this.reviews.create({
          user: userId,
          product: product._id,
          rating: dto.rating,
          comment,
          ...(title ? { title } : {}),
          verified,
        }),
        DUPLICATE_REVIEW,
        'DUPLICATE_REVIEW',
      );
      return { doc: created, stats: await this.recomputeProductRating(product._id) };
    });
    const [review] = await this.toViews([doc.toObject()], product);
    return { review, ...stats };
  }

  /** The author or an admin may edit; the verified flag is refreshed at the same time. */
  async update(actor: AuthUser, reviewId: string, dto: UpdateReviewDto) {
    const existing = await this.ownReview(actor, reviewId);
    const set: Partial<Review> = {};
    if (dto.rating !== undefined) set.rating = dto.rating;
    const comment = commentOf(dto, false);
    if (comment !== undefined) set.comment = comment;
    if (dto.title !== undefined) set.title = dto.title.trim();
    if (!Object.keys(set).length)
      throw new InvalidDataError(
        'Nothing to update: send rating, comment or title',
        undefined,
        'NOTHING_TO_UPDATE',
      );
    set.verified = await this.hasDeliveredOrder(existing.user, existing.product);
    const { doc, stats } = await this.reviewChange(existing.product, async () => {
      const updated = await this.reviews
        .findByIdAndUpdate(existing._id, { $set: set }, { new: true, runValidators: true })
        .lean();
      if (!updated) throw new NotFoundError(REVIEW_NOT_FOUND, 'REVIEW_NOT_FOUND');
      return { doc: updated, stats: await this.recomputeProductRating(updated.product) };
    });
    const [review] = await this.toViews([doc]);
    return { review, ...stats };
  }

  async remove(actor: AuthUser, reviewId: string) {
    const existing = await this.ownReview(actor, reviewId);
    return this.reviewChange(existing.product, async () => {
      await this.reviews.deleteOne({ _id: existing._id });
      return this.recomputeProductRating(existing.product);
    });
  }

  /** A review write and its product's figures, published as one `review` change (a product's rating may move). */
  private reviewChange<T>(product: Types.ObjectId, write: () => Promise<T>): Promise<T> {
    return this.changes.around({ kind: 'review', ids: [String(product)] }, write);
  }

  private async ownReview(actor: AuthUser, reviewId: string) {
    const review = await this.reviews
      .findById(parseObjectId(reviewId, REVIEW_NOT_FOUND, 'REVIEW_NOT_FOUND'))
      .lean();
    if (!review) throw new NotFoundError(REVIEW_NOT_FOUND, 'REVIEW_NOT_FOUND');
    if (actor.role !== 'admin' && String(review.user) !== actor.id) {
      throw new DomainError(
        'FORBIDDEN',
        'You can only change your own reviews',
        undefined,
        'OWN_REVIEWS_ONLY',
      );
    }
    return review;
  }

  private async hasDeliveredOrder(user: Types.ObjectId, product: Types.ObjectId): Promise<boolean> {
    return this.orders.hasDelivered(user, product);
  }

  /** Keeps the product's rating (average, one decimal) and reviewCount in step with its reviews (inside a `reviewChange`). */
  private async recomputeProductRating(product: Types.ObjectId) {
    const [stats] = await this.ratingStats([product]);
    return this.products.recomputeRating(product, stats);
  }

  /** Keeps the ratings of many products in step at once (the seed); updatedAt is left alone. */
  async recomputeProductRatings(products: readonly Types.ObjectId[]): Promise<void> {
    const stats = await this.ratingStats(products);
    const byProduct = new Map(stats.map((s) => [String(s.product), s]));
    await this.changes.around({ kind: 'review', ids: products.map(String) }, async () => {
      for (const product of products)
        await this.products.recomputeRating(product, byProduct.get(String(product)), { touch: false });
    });
  }

  private async ratingStats(products: readonly Types.ObjectId[]) {
    const rows = await this.reviews.aggregate<{ _id: Types.ObjectId; avg: number; count: number }>([
      { $match: { product: { $in: products } } },
      { $group: { _id: '$product', avg: { $avg: '$rating' }, count: { $sum: 1 } } },
    ]);
    return rows.map((r) => ({ product: r._id, average: r.avg, count: r.count }));
  }
}
