import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { Product, ProductSchema } from '../modules/catalog/schemas/product.schema';
import { OrderNumbersModule } from '../modules/orders/order-numbers.module';
import { Order, OrderSchema } from '../modules/orders/schemas/order.schema';
import { Review, ReviewSchema } from '../modules/reviews/schemas/review.schema';
import { User, UserSchema } from '../modules/users/schemas/user.schema';
import { ReviewsModule } from '../modules/reviews/reviews.module';
import { PromotionsModule } from '../modules/promotions/promotions.module';
import { SeedService } from './seed.service';

/**
 * The demo data loader: it bulk-writes documents with fixed dates and keys, which no domain service
 * offers, so it is the one place outside a module that registers their models
 * (docs/decisions/0009-module-boundaries.md). Derived figures (ratings) still come from the owning services.
 */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: Product.name, schema: ProductSchema },
      { name: User.name, schema: UserSchema },
      { name: Review.name, schema: ReviewSchema },
      { name: Order.name, schema: OrderSchema },
    ]),
    OrderNumbersModule,
    ReviewsModule,
    PromotionsModule,
  ],
  providers: [SeedService],
  exports: [SeedService],
})
export class SeedModule {}
