import { Module } from '@nestjs/common';

/** Filled in by the cart work (see the issues). */
@Module({})
export class CartModule {}
