import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { CartModule } from '../cart/cart.module';
import { CatalogModule } from '../catalog/catalog.module';
import { Wishlist, WishlistSchema } from './schemas/wishlist.schema';
import { WishlistController } from './wishlist.controller';
import { WishlistUnsubscribeController } from './wishlist-unsubscribe.controller';
import { WishlistService } from './wishlist.service';

@Module({
  imports: [
    MongooseModule.forFeature([{ name: Wishlist.name, schema: WishlistSchema }]),
    CatalogModule,
    CartModule,
  ],
  controllers: [WishlistUnsubscribeController, WishlistController],
  providers: [WishlistService],
  exports: [WishlistService],
})
export class WishlistModule {}
