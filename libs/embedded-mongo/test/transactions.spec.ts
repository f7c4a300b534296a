import { MongoClient, type Db } from 'mongodb';
import mongoose from 'mongoose';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src';

describe('transactions and Mongoose', () => {
  let server: EmbeddedMongo;
  let client: MongoClient;
  let db: Db;

  beforeAll(async () => {
    server = await startEmbeddedMongo({ inMemory: true });
    client = await MongoClient.connect(server.uri);
    db = client.db('txn_test');
  });

  afterAll(async () => {
    await client.close();
    await server.stop();
  });

  it('commits every write of a transaction together', async () => {
    const accounts = db.collection('accounts');
    await accounts.insertMany([
      { _id: 'a' as never, balance: 100 },
      { _id: 'b' as never, balance: 0 },
    ]);
    const session = client.startSession();
    try {
      await session.withTransaction(async () => {
        await accounts.updateOne({ _id: 'a' as never }, { $inc: { balance: -30 } }, { session });
        await accounts.updateOne({ _id: 'b' as never }, { $inc: { balance: 30 } }, { session });
        await db.collection('ledger').insertOne({ amount: 30 }, { session });
      });
    } finally {
      await session.endSession();
    }
    expect((await accounts.find().sort({ _id: 1 }).toArray()).map((a) => a.balance)).toEqual([70, 30]);
    expect(await db.collection('ledger').countDocuments()).toBe(1);
  });

  it('leaves nothing behind when aborted, and hides uncommitted writes from others', async () => {
    const notes = db.collection('notes');
    const session = client.startSession();
    session.startTransaction();
    await notes.insertOne({ text: 'draft' }, { session });
    expect(await notes.countDocuments({}, { session })).toBe(1); // own writes visible inside
    expect(await notes.countDocuments({})).toBe(0); // invisible outside
    await session.abortTransaction();
    await session.endSession();
    expect(await notes.countDocuments({})).toBe(0);
  });

  it('fails a conflicting write with a transient error that withTransaction retries', async () => {
    const items = db.collection('contended');
    await items.insertOne({ _id: 'x' as never, n: 0 });
    const first = client.startSession();
    first.startTransaction();
    await items.updateOne({ _id: 'x' as never }, { $inc: { n: 1 } }, { session: first });

    const second = client.startSession();
    second.startTransaction();
    const conflict = await items
      .updateOne({ _id: 'x' as never }, { $inc: { n: 10 } }, { session: second })
      .catch((e) => e);
    expect(conflict.code).toBe(112);
    expect(conflict.hasErrorLabel('TransientTransactionError')).toBe(true);
    await second.abortTransaction().catch(() => undefined);
    await first.commitTransaction();

    let attempts = 0;
    await second.withTransaction(async () => {
      attempts++;
      await items.updateOne({ _id: 'x' as never }, { $inc: { n: 10 } }, { session: second });
    });
    await first.endSession();
    await second.endSession();
    expect(attempts).toBe(1);
    expect((await items.findOne({ _id: 'x' as never }))?.n).toBe(11);
  });

  it('retries the whole transaction when a plain write changed its documents before commit', async () => {
    const stock = db.collection('stock_txn');
    await stock.insertOne({ _id: 's' as never, qty: 5 });
    const session = client.startSession();
    let attempts = 0;
    await session.withTransaction(async () => {
      attempts++;
      const doc = await stock.findOne({ _id: 's' as never }, { session });
      await stock.updateOne({ _id: 's' as never }, { $set: { qty: doc!.qty - 1 } }, { session });
      if (attempts === 1) await stock.updateOne({ _id: 's' as never }, { $inc: { qty: -2 } }); // outside the transaction
    });
    await session.endSession();
    expect(attempts).toBe(2);
    expect((await stock.findOne({ _id: 's' as never }))?.qty).toBe(2);
  });

  it('labels a conflict found at commit TransientTransactionError too (code 112)', async () => {
    const docs = db.collection('commit_conflict');
    await docs.insertOne({ _id: 'c' as never, n: 0 });
    const session = client.startSession();
    session.startTransaction();
    await docs.updateOne({ _id: 'c' as never }, { $inc: { n: 1 } }, { session });
    await docs.updateOne({ _id: 'c' as never }, { $inc: { n: 100 } }); // a plain write after the transaction's
    const failed = await session.commitTransaction().catch((e) => e);
    await session.endSession();
    expect(failed.code).toBe(112);
    expect(failed.codeName).toBe('WriteConflict');
    expect(failed.hasErrorLabel('TransientTransactionError')).toBe(true);
    expect((await docs.findOne({ _id: 'c' as never }))?.n).toBe(100);
  });

  it('resolves 20 transactions racing for the last unit: one holds it, the 19 others conflict, retry, re-read and find none', async () => {
    const stock = db.collection('last_unit');
    await stock.insertOne({ _id: 'jar' as never, qty: 1 });
    const buyers = db.collection('last_unit_orders');
    let conflicts = 0;
    const buy = async (n: number) => {
      const session = client.startSession();
      try {
        let attempt = 0;
        return await session.withTransaction(async () => {
          if (attempt++ > 0) conflicts++;
          const taken = await stock.findOneAndUpdate(
            { _id: 'jar' as never, qty: { $gte: 1 } },
            { $inc: { qty: -1 } },
            { session, returnDocument: 'after' },
          );
          if (!taken) throw new Error('out of stock');
          await buyers.insertOne({ buyer: n }, { session });
          return 'bought';
        });
      } catch (error) {
        return (error as Error).message;
      } finally {
        await session.endSession();
      }
    };
    // The first buyer holds the unit in an open transaction while the 19 others start: they must conflict.
    const first = client.startSession();
    first.startTransaction();
    expect(
      await stock.findOneAndUpdate(
        { _id: 'jar' as never, qty: { $gte: 1 } },
        { $inc: { qty: -1 } },
        { session: first },
      ),
    ).not.toBeNull();
    await buyers.insertOne({ buyer: 0 }, { session: first });
    const others = Promise.all(Array.from({ length: 19 }, (_, n) => buy(n + 1)));
    while (conflicts === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await first.commitTransaction();
    await first.endSession();
    const results = await others;
    expect(results).toEqual(Array.from({ length: 19 }, () => 'out of stock'));
    expect((await stock.findOne({ _id: 'jar' as never }))?.qty).toBe(0);
    expect(await buyers.countDocuments()).toBe(1);
  });

  it('refuses a duplicate inside a transaction and commits nothing of it', async () => {
    const users = db.collection('txn_users');
    await users.createIndex({ email: 1 }, { unique: true });
    await users.insertOne({ email: 'a@x.et' });
    const session = client.startSession();
    await expect(
      session.withTransaction(async () => {
        await users.insertOne({ email: 'b@x.et' }, { session });
        await users.insertOne({ email: 'a@x.et' }, { session });
      }),
    ).rejects.toMatchObject({ code: 11000 });
    await session.endSession();
    expect(await users.countDocuments({ email: 'b@x.et' })).toBe(0);
  });

  it('serves Mongoose: schema indexes, validation, duplicate errors, populate and transactions', async () => {
    const conn = await mongoose.createConnection(server.uri, { dbName: 'mongoose_test' }).asPromise();
    try {
      const Brand = conn.model('Brand', new mongoose.Schema({ name: { type: String, required: true } }));
      const Product = conn.model(
        'Product',
        new mongoose.Schema(
          {
            sku: { type: String, unique: true, required: true },
            price: { type: Number, min: 0 },
            brand: { type: mongoose.Schema.Types.ObjectId, ref: 'Brand' },
          },
          { timestamps: true },
        ),
      );
      await Product.init();
      expect((await Product.listIndexes()).map((i) => i.name)).toEqual(['_id_', 'sku_1']);
      const brand = await Brand.create({ name: 'Habesha Naturals' });
      await Product.create({ sku: 'a', price: 10, brand: brand._id });
      await expect(Product.create({ sku: 'a', price: 5 })).rejects.toMatchObject({
        code: 11000,
        keyValue: { sku: 'a' },
      });
      await expect(Product.create({ sku: 'b', price: -1 })).rejects.toThrow(/price/);
      const found = await Product.findOne({ sku: 'a' }).populate<{ brand: { name: string } }>('brand');
      expect(found?.brand.name).toBe('Habesha Naturals');
      expect(found?.createdAt).toBeInstanceOf(Date);

      await conn.transaction(async (session) => {
        await Product.create([{ sku: 'c', price: 1 }], { session });
        await Product.updateOne({ sku: 'a' }, { $inc: { price: 5 } }, { session });
      });
      expect(await Product.countDocuments()).toBe(2);
      expect((await Product.findOne({ sku: 'a' }).lean())?.price).toBe(15);

      await expect(
        conn.transaction(async (session) => {
          await Product.create([{ sku: 'd', price: 1 }], { session });
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      expect(await Product.countDocuments({ sku: 'd' })).toBe(0);
    } finally {
      await conn.close();
    }
  });
});
