import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { formatOrderNumber, ORDER_NUMBER_START } from '@shop/shared';
import { Model, Types } from 'mongoose';
import { isDuplicateKeyError } from '../../common/mongo';
import { Counter } from './schemas/counter.schema';
import { Order } from './schemas/order.schema';

const ORDER_COUNTER = 'orderNumber';

/**
 * Allocates short sequential order numbers from a counter document (one atomic `findOneAndUpdate`
 * with `$inc`), so concurrent orders never share a number; the unique index on `orderNumber` is the
 * last guard. A number taken by an order that then fails (say, out of stock) is not reused: numbers
 * are increasing, with possible gaps, like any shop's invoice numbers.
 */
@Injectable()
export class OrderNumbersService implements OnApplicationBootstrap {
  private readonly log = new Logger(OrderNumbersService.name);

  constructor(
    @InjectModel(Counter.name) private readonly counters: Model<Counter>,
    @InjectModel(Order.name) private readonly orders: Model<Order>,
  ) {}

  async next(): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      try {
        // the model's collection (versionKey off, no timestamps: nothing for Mongoose to add)
        const counter = await this.counters.collection.findOneAndUpdate(
          { name: ORDER_COUNTER },
          { $inc: { seq: 1 }, $setOnInsert: { name: ORDER_COUNTER } },
          { upsert: true, returnDocument: 'after', includeResultMetadata: false },
        );
        // A fresh counter starts at 1: shift it so that the first order is ORDER_NUMBER_START.
        return formatOrderNumber(ORDER_NUMBER_START - 1 + (counter as unknown as Counter).seq);
      } catch (error) {
        // Two first-ever upserts race on the unique name: the loser simply increments the winner's.
        if (!isDuplicateKeyError(error) || attempt >= 3) throw error;
      }
    }
  }

  /** Gives every order without a number one, oldest first (seeded and pre-existing orders). */
  async backfill(): Promise<number> {
    let done = 0;
    for (;;) {
      const batch = await this.orders
        .find({ orderNumber: { $exists: false } })
        .sort({ createdAt: 1, _id: 1 })
        .limit(200)
        .select({ _id: 1 })
        .lean()
        .exec();
      if (!batch.length) return done;
      for (const { _id } of batch as { _id: Types.ObjectId }[]) {
        const number = await this.next();
        const res = await this.orders
          .updateOne({ _id, orderNumber: { $exists: false } }, { $set: { orderNumber: number } })
          .exec();
        done += res.modifiedCount;
      }
    }
  }

  async onApplicationBootstrap(): Promise<void> {
    try {
      const n = await this.backfill();
      if (n) this.log.log(`Gave ${n} existing orders an order number`);
    } catch (error) {
      // The database may be down at start (the API still starts and answers 503): the seed and the next start retry.
      this.log.warn(`Order number backfill skipped: ${(error as Error).message}`);
    }
  }
}
