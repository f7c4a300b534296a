import { Module } from '@nestjs/common';

/** Filled in by the orders work (see the issues). */
@Module({})
export class OrdersModule {}
