import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { CatalogModule } from '../catalog/catalog.module';
import { CartOwnerGuard } from './cart-owner.guard';
import { CartController, CartMergeController } from './cart.controller';
import { CartService } from './cart.service';
import { Cart, CartSchema, GuestCart, GuestCartSchema } from './schemas/cart.schema';

@Module({
  imports: [
    MongooseModule.forFeature([
      { name: Cart.name, schema: CartSchema },
      { name: GuestCart.name, schema: GuestCartSchema },
    ]),
    CatalogModule,
  ],
  controllers: [CartMergeController, CartController],
  providers: [CartService, CartOwnerGuard],
  exports: [CartService],
})
export class CartModule {}
