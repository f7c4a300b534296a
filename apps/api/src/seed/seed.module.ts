import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { Product, ProductSchema } from '../modules/catalog/schemas/product.schema';
import { OrderNumbersModule } from '../modules/orders/order-numbers.module';
import { Order, OrderSchema } from '../modules/orders/schemas/order.schema';
import { Review, ReviewSchema } from '../modules/reviews/schemas/review.schema';
import { User, UserSchema } from '../modules/users/schemas/user.schema';
import { SeedService } from './seed.service';

@Module({
  imports: [
    MongooseModule.forFeature([
      { name: Product.name, schema: ProductSchema },
      { name: User.name, schema: UserSchema },
      { name: Review.name, schema: ReviewSchema },
      { name: Order.name, schema: OrderSchema },
    ]),
    OrderNumbersModule,
  ],
  providers: [SeedService],
  exports: [SeedService],
})
export class SeedModule {}
