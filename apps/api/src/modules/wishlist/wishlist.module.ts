import { Module } from '@nestjs/common';

/** Filled in by the wishlist work (see the issues). */
@Module({})
export class WishlistModule {}
