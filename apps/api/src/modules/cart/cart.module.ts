import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { CatalogModule } from '../catalog/catalog.module';
import { CouponsModule } from '../coupons/coupons.module';
import { CartOwnerGuard } from './cart-owner.guard';
import { CartController, CartMergeController } from './cart.controller';
import { CartService } from './cart.service';
import { CartStore } from './cart-store';
import { CartViewService } from './cart-view.service';
import { GuestCartsService } from './guest-carts.service';
import { Cart, CartSchema, GuestCart, GuestCartSchema } from './schemas/cart.schema';

@Module({
  imports: [
    MongooseModule.forFeature([
      { name: Cart.name, schema: CartSchema },
      { name: GuestCart.name, schema: GuestCartSchema },
    ]),
    CatalogModule,
    CouponsModule,
  ],
  controllers: [CartMergeController, CartController],
  providers: [CartStore, CartViewService, CartService, GuestCartsService, CartOwnerGuard],
  exports: [CartService],
})
export class CartModule {}
