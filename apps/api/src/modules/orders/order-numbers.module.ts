import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { OrderNumbersService } from './order-numbers.service';
import { Counter, CounterSchema } from './schemas/counter.schema';
import { Order, OrderSchema } from './schemas/order.schema';

/** Order numbers: the counter and its backfill, shared by the orders module and the seed. */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: Counter.name, schema: CounterSchema },
      { name: Order.name, schema: OrderSchema },
    ]),
  ],
  providers: [OrderNumbersService],
  exports: [OrderNumbersService],
})
export class OrderNumbersModule {}
