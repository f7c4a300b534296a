import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { FilterQuery, Model, Types } from 'mongoose';
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
import { Product } from '../catalog/schemas/product.schema';
import { REVIEW_NOT_FOUND, ReviewsService } from '../reviews/reviews.service';
import { Review } from '../reviews/schemas/review.schema';
import { User } from '../users/schemas/user.schema';

type ReviewRecord = Review & { _id: Types.ObjectId };

/** Reviews for the back office; deletion goes through ReviewsService, which keeps product ratings in step. */
@Injectable()
export class AdminReviewsService {
  constructor(
    @InjectModel(Review.name) private readonly reviews: Model<Review>,
    @InjectModel(Product.name) private readonly products: Model<Product>,
    @InjectModel(User.name) private readonly users: Model<User>,
    private readonly reviewsService: ReviewsService,
  ) {}

  /** react-admin list: filters q (title, comment), product, user, rating, verified, id. */
  async list(query: ReactAdminListQuery) {
    const { sort, skip, limit, filter } = parseListQuery(query, {
      sortFields: { createdAt: 'createdAt', rating: 'rating', verified: 'verified' },
      filters: ['q', 'product', 'user', 'rating', 'verified'],
      defaultSort: ['createdAt', 'DESC'],
    });
    const where: FilterQuery<Review> = {};
    const ids = filterObjectIds(filter);
    if (ids) where._id = { $in: ids };
    const q = filterText(filter, 'q');
    if (q) {
      const pattern = new RegExp(escapeRegex(q), 'i');
      where.$or = [{ title: pattern }, { comment: pattern }];
    }
    const products = filterObjectIds(filter, 'product');
    if (products) where.product = { $in: products };
    const users = filterObjectIds(filter, 'user');
    if (users) where.user = { $in: users };
    const ratings = filterEnum(filter, 'rating', ['1', '2', '3', '4', '5']);
    if (ratings) where.rating = { $in: ratings.map(Number) };
    const verified = filterBoolean(filter, 'verified');
    if (verified !== undefined) where.verified = verified;
    const [docs, total] = await Promise.all([
      this.reviews.find(where).sort(sort).skip(skip).limit(limit).lean().exec(),
      this.reviews.countDocuments(where).exec(),
    ]);
    return { records: await this.toRecords(docs as ReviewRecord[]), skip, total };
  }

  async getOne(id: string) {
    const [record] = await this.toRecords([await this.find(id)]);
    return record;
  }

  /** Deletes the review (rating and reviewCount of the product recomputed) and answers the record. */
  async remove(id: string, actor: AuthUser) {
    const [record] = await this.toRecords([await this.find(id)]);
    await this.reviewsService.remove(actor, id);
    return record;
  }

  private async find(id: string): Promise<ReviewRecord> {
    const doc = await this.reviews.findById(parseObjectId(id, REVIEW_NOT_FOUND)).lean().exec();
    if (!doc) throw new NotFoundError(REVIEW_NOT_FOUND);
    return doc as ReviewRecord;
  }

  /** Each review with its author's and product's names, looked up once per page. */
  private async toRecords(reviews: ReviewRecord[]) {
    const ids = (key: 'user' | 'product') =>
      [...new Set(reviews.map((r) => String(r[key])))]
        .filter((id) => Types.ObjectId.isValid(id))
        .map((id) => new Types.ObjectId(id));
    const [users, products] = await Promise.all([
      this.users
        .find({ _id: { $in: ids('user') } }, { name: 1, email: 1 })
        .lean()
        .exec(),
      this.products
        .find({ _id: { $in: ids('product') } }, { name: 1 })
        .lean()
        .exec(),
    ]);
    const userById = new Map(users.map((u) => [String(u._id), u]));
    const productById = new Map(products.map((p) => [String(p._id), p]));
    return reviews.map((r) => {
      const user = userById.get(String(r.user));
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
}
