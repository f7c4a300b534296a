import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import type { AuthUser } from '../../common/auth/auth-user';
import { DomainError, InvalidDataError, NotFoundError } from '../../common/errors/domain-error';
import { conflictOnDuplicate, parseObjectId } from '../../common/mongo';
import { PRODUCT_NOT_FOUND } from '../catalog/catalog.service';
import { Product } from '../catalog/schemas/product.schema';
import { Order } from '../orders/schemas/order.schema';
import { User } from '../users/schemas/user.schema';
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

function commentOf(dto: { comment?: string; text?: string }, required: boolean): string | undefined {
  const raw = dto.comment ?? dto.text;
  if (raw === undefined && !required) return undefined;
  const comment = raw?.trim();
  if (!comment)
    throw new InvalidDataError('Validation failed', [{ field: 'comment', message: 'comment is required' }]);
  return comment;
}

@Injectable()
export class ReviewsService {
  constructor(
    @InjectModel(Review.name) private readonly reviews: Model<Review>,
    @InjectModel(Product.name) private readonly products: Model<Product>,
    @InjectModel(User.name) private readonly users: Model<User>,
    @InjectModel(Order.name) private readonly orders: Model<Order>,
  ) {}

  private async activeProduct(id: string) {
    const product = await this.products
      .findOne(
        { _id: parseObjectId(id, PRODUCT_NOT_FOUND), active: true },
        { name: 1, nameAm: 1, images: 1, rating: 1, reviewCount: 1 },
      )
      .lean();
    if (!product) throw new NotFoundError(PRODUCT_NOT_FOUND);
    return product;
  }

  /** Reviews with their author's name and product's name, as the storefront shows them. */
  private async toViews(reviews: ReviewRecord[], known?: ProductSummary) {
    const userIds = [...new Set(reviews.map((r) => String(r.user)))].map((id) => new Types.ObjectId(id));
    const productIds = [...new Set(reviews.map((r) => String(r.product)))].map(
      (id) => new Types.ObjectId(id),
    );
    const [users, products] = await Promise.all([
      this.users.find({ _id: { $in: userIds } }, { name: 1 }).lean(),
      known
        ? [known]
        : this.products.find({ _id: { $in: productIds } }, { name: 1, nameAm: 1, images: 1 }).lean(),
    ]);
    const userById = new Map(users.map((u) => [String(u._id), u]));
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
        await this.products
          .find({ _id: { $in: docs.map((d) => d.product) }, active: true }, { _id: 1 })
          .lean()
      ).map((p) => String(p._id)),
    );
    return this.toViews(docs.filter((d) => active.has(String(d.product))).slice(0, wanted));
  }

  /** One review per customer per product; verified when the author has a delivered order with it. */
  async create(author: AuthUser, productId: string, dto: CreateReviewDto) {
    const product = await this.activeProduct(productId);
    const comment = commentOf(dto, true)!;
    const userId = new Types.ObjectId(author.id);
    if (await this.reviews.exists({ user: userId, product: product._id }))
      throw new DomainError('CONFLICT', DUPLICATE_REVIEW);
    const verified = await this.hasDeliveredOrder(userId, product._id);
    const title = dto.title?.trim();
    const doc = await conflictOnDuplicate(
      this.reviews.create({
        user: userId,
        product: product._id,
        rating: dto.rating,
        comment,
        ...(title ? { title } : {}),
        verified,
      }),
      DUPLICATE_REVIEW,
    );
    const stats = await this.recomputeProductRating(product._id);
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
      throw new InvalidDataError('Nothing to update: send rating, comment or title');
    set.verified = await this.hasDeliveredOrder(existing.user, existing.product);
    const doc = await this.reviews
      .findByIdAndUpdate(existing._id, { $set: set }, { new: true, runValidators: true })
      .lean();
    if (!doc) throw new NotFoundError(REVIEW_NOT_FOUND);
    const stats = await this.recomputeProductRating(doc.product);
    const [review] = await this.toViews([doc]);
    return { review, ...stats };
  }

  async remove(actor: AuthUser, reviewId: string) {
    const existing = await this.ownReview(actor, reviewId);
    await this.reviews.deleteOne({ _id: existing._id });
    return this.recomputeProductRating(existing.product);
  }

  private async ownReview(actor: AuthUser, reviewId: string) {
    const review = await this.reviews.findById(parseObjectId(reviewId, REVIEW_NOT_FOUND)).lean();
    if (!review) throw new NotFoundError(REVIEW_NOT_FOUND);
    if (actor.role !== 'admin' && String(review.user) !== actor.id) {
      throw new DomainError('FORBIDDEN', 'You can only change your own reviews');
    }
    return review;
  }

  private async hasDeliveredOrder(user: Types.ObjectId, product: Types.ObjectId): Promise<boolean> {
    // the Order schema declares its references with `Types.ObjectId`, which @nestjs/mongoose turns into Mixed,
    // so an id written as a string stays a string: match both forms
    return !!(await this.orders.exists({
      user: { $in: [user, String(user)] },
      status: 'delivered',
      'orderItems.product': { $in: [product, String(product)] },
    }));
  }

  /** Keeps the product's rating (average, one decimal) and reviewCount in step with its reviews. */
  async recomputeProductRating(product: Types.ObjectId) {
    const [stats] = await this.reviews.aggregate<{ avg: number; count: number }>([
      { $match: { product } },
      { $group: { _id: '$product', avg: { $avg: '$rating' }, count: { $sum: 1 } } },
    ]);
    const rating = stats ? Math.round(stats.avg * 10) / 10 : 0;
    const reviewCount = stats?.count ?? 0;
    await this.products.updateOne({ _id: product }, { $set: { rating, reviewCount } });
    return { rating, reviewCount };
  }
}
