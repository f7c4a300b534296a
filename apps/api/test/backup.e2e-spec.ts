import { execFile, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startEmbeddedMongo, type EmbeddedMongo } from '@shop/embedded-mongo';
import { mongo } from 'mongoose';
import sharp from 'sharp';
import request from 'supertest';
import { auth, customerFactory } from './support/accounts';
import { startTestApp, type TestApp } from './support/test-app';

// Issue 33, point 5 (docs/operations.md, Backups): `npm run backup` while 20 orders are being placed
// through the API (real HTTP), restored by `npm run restore` into an empty engine. The scripts run as
// the operator runs them: child processes of node, over the wire.
const ROOT = path.resolve(__dirname, '..', '..', '..');
const BACKUP = path.join(ROOT, 'scripts', 'backup', 'backup.mjs');
const RESTORE = path.join(ROOT, 'scripts', 'backup', 'restore.mjs');
const INITIAL_STOCK = 100;
const ORDERS = 20;
const address = { street: 'Bole Road, House 12', city: 'Addis Ababa', state: 'Addis Ababa', zipCode: '1000' };
/** A photo of noise: its largest WebP copy spans several GridFS chunks (255 kB each). */
const PHOTO = () =>
  sharp({
    create: {
      width: 1600,
      height: 1200,
      channels: 3,
      background: '#777777',
      noise: { type: 'gaussian', mean: 128, sigma: 90 },
    },
  })
    .jpeg({ quality: 90 }) // about 1.6 MB, under the 5 MB limit
    .toBuffer();

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs one of the scripts; `onLine` hears its output as it comes. */
function runScript(
  script: string,
  args: string[],
  env: Record<string, string>,
  onLine?: (line: string) => void,
): { child: ChildProcess; done: Promise<Run> } {
  let child!: ChildProcess;
  const done = new Promise<Run>((resolve) => {
    child = execFile(
      process.execPath,
      [script, ...args],
      { cwd: ROOT, env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
  if (onLine) child.stdout!.on('data', (chunk: Buffer) => String(chunk).split('\n').forEach(onLine));
  return { child, done };
}

describe('backup and restore (npm run backup / npm run restore)', () => {
  let t: TestApp;
  let target: EmbeddedMongo;
  let restoredClient: mongo.MongoClient;
  let restored: mongo.Db;
  let work: string;
  let backupDir: string;
  let dbName: string;
  let imagePath: string;
  let image: Buffer;
  const productIds: string[] = [];
  /** Every order placed: its id, its lines, when it was sent and when the API acknowledged it. */
  const placed: Array<{
    id: string;
    lines: Array<{ product: string; quantity: number }>;
    sentAt: number;
    ackedAt: number;
  }> = [];
  let backupStartedAt = 0;
  let ordersReadAt = 0;
  let backupRun: Run;
  const newCustomer = customerFactory(() => t, 'backup', 'Backup Customer');

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'backup-test-'));
    backupDir = path.join(work, 'copy');
    t = await startTestApp();
    dbName = t.config.database.name;
    await request(t.http)
      .post('/api/auth/register-admin')
      .send({
        name: 'Selam Admin',
        email: 'backup-admin@example.et',
        password: 'Buna@2026x',
        adminSecretKey: t.config.adminSecretKey,
      })
      .expect(201);
    const admin = (
      await request(t.http)
        .post('/api/auth/login')
        .send({ email: 'backup-admin@example.et', password: 'Buna@2026x' })
        .expect(200)
    ).body.token as string;
    // an image uploaded before the backup (GridFS bucket `images`)
    const upload = await request(t.http)
      .post('/api/uploads')
      .set(auth(admin))
      .attach('images', await PHOTO(), { filename: 'serum.jpg', contentType: 'image/jpeg' })
      .expect(201);
    imagePath = new URL(upload.body.urls[0] as string).pathname;
    // what the shop serves for it (the photo's largest WebP copy, docs/decisions/0093-photo-variants.md)
    image = (await request(t.http).get(imagePath).buffer(true).expect(200)).body as Buffer;
    expect(image.length).toBeGreaterThan(2 * 255 * 1024);
    for (const name of ['Shea Butter Cream', 'Coffee Scrub', 'Black Seed Oil']) {
      const res = await request(t.http)
        .post('/api/products')
        .set(auth(admin))
        .send({ name, price: 250, stock: INITIAL_STOCK, images: [upload.body.urls[0]] })
        .expect(201);
      productIds.push(res.body.product._id as string);
    }
    // twenty customers with their carts filled: only the order placement runs during the backup
    const customers: Array<{ token: string; lines: Array<{ product: string; quantity: number }> }> = [];
    for (let i = 0; i < ORDERS; i++) {
      const customer = await newCustomer();
      const lines = [
        { product: productIds[i % 3], quantity: 1 + (i % 3) },
        ...(i % 2 ? [{ product: productIds[(i + 1) % 3], quantity: 1 }] : []),
      ];
      for (const line of lines)
        await request(t.http)
          .post('/api/cart/add')
          .set(auth(customer.token))
          .send({ productId: line.product, quantity: line.quantity })
          .expect(200);
      customers.push({ token: customer.token, lines });
    }

    const place = async (customer: (typeof customers)[number]) => {
      const sentAt = Date.now();
      const res = await request(t.http)
        .post('/api/orders')
        .set(auth(customer.token))
        .send({ shippingAddress: address, paymentMethod: 'chapa' })
        .expect(201);
      placed.push({ id: res.body.order._id as string, lines: customer.lines, sentAt, ackedAt: Date.now() });
    };
    // the first five, then the backup starts; it reads collection by collection (in name order),
    // slowly (pause-ms), while the other fifteen are placed: ten in two lanes at once, and the last five
    // once it has read `orders` (its snapshot was taken at its first read), so that they commit between
    // its reads of orders and of products: a copy that is not of one moment holds their stock changes
    // without them
    const lanes = (list: typeof customers) =>
      Promise.all(
        [0, 1].map(async (lane) => {
          for (const customer of list.filter((_, i) => i % 2 === lane)) await place(customer);
        }),
      );
    for (const customer of customers.slice(0, 5)) await place(customer);
    let ordersRead!: () => void;
    const ordersCopied = new Promise<void>((resolve) => (ordersRead = resolve));
    backupStartedAt = Date.now();
    const backup = runScript(
      BACKUP,
      ['--out', backupDir, '--pause-ms', '200'],
      { MONGODB_URI: t.engine.uri, MONGODB_DB: dbName },
      (line) => {
        if (/^orders: \d+ documents$/.test(line) && !ordersReadAt) {
          ordersReadAt = Date.now();
          ordersRead();
        }
      },
    );
    const during = lanes(customers.slice(5, 15));
    const after = ordersCopied.then(() => lanes(customers.slice(15)));
    [backupRun] = await Promise.all([backup.done, during, after]);

    target = await startEmbeddedMongo({ inMemory: true });
    restoredClient = await mongo.MongoClient.connect(target.uri);
    restored = restoredClient.db(dbName);
  });

  afterAll(async () => {
    await restoredClient?.close();
    await target?.stop();
    await t?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('writes a point-in-time copy with a manifest while orders are being placed', () => {
    expect(backupRun.stderr).toBe('');
    expect(backupRun.code).toBe(0);
    expect(placed).toHaveLength(ORDERS);
    const manifest = JSON.parse(readFileSync(path.join(backupDir, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({
      format: 'shop-backup',
      version: 1,
      database: dbName,
      pointInTime: {
        readConcern: 'snapshot',
        atClusterTime: { t: expect.any(Number), i: expect.any(Number) },
      },
    });
    const names = manifest.collections.map((c: { name: string }) => c.name);
    expect(names).toEqual(
      expect.arrayContaining(['orders', 'products', 'users', 'images.files', 'images.chunks']),
    );
    for (const file of Object.keys(manifest.files))
      expect(manifest.files[file].sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(backupRun.stdout).toMatch(/as of cluster time/);
  });

  it('restores into an empty engine: every order acknowledged before the backup, none half-written', async () => {
    const run = await runScript(RESTORE, ['--from', backupDir], {
      MONGODB_URI: target.uri,
      MONGODB_DB: dbName,
    }).done;
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/counts and indexes match the manifest/);

    const orders = await restored.collection('orders').find().toArray();
    const inCopy = new Set(orders.map((o) => String(o._id)));
    // acknowledged before the backup started: all there
    const before = placed.filter((o) => o.ackedAt <= backupStartedAt);
    expect(before).toHaveLength(5);
    for (const order of before) expect(inCopy).toContain(order.id);
    // nothing half-written: for the orders present, and only those, the stock went down
    for (const product of productIds) {
      const stock = (await restored.collection('products').findOne({ _id: new mongo.ObjectId(product) }))!
        .stock;
      const ordered = orders
        .flatMap((o) => o.orderItems as Array<{ product: mongo.ObjectId; quantity: number }>)
        .filter((item) => String(item.product) === product)
        .reduce((sum, item) => sum + item.quantity, 0);
      expect(stock + ordered).toBe(INITIAL_STOCK);
    }
    // the five sent once the backup had read orders: none there (the copy is of one moment)
    const later = placed.filter((o) => o.sentAt >= ordersReadAt);
    expect(later.length).toBeGreaterThanOrEqual(5);
    for (const order of later) expect(inCopy).not.toContain(order.id);
    // the copy holds every placed order it names with the same lines the API answered
    for (const order of orders) {
      const known = placed.find((p) => p.id === String(order._id));
      expect(known).toBeDefined();
      expect(order.orderItems.map((i: { quantity: number }) => i.quantity).sort()).toEqual(
        known!.lines.map((l) => l.quantity).sort(),
      );
    }
  });

  it('recreates every index; unique ones still refuse duplicates', async () => {
    const source = new mongo.MongoClient(t.engine.uri);
    try {
      const sourceDb = source.db(dbName);
      for (const name of ['users', 'orders', 'products', 'images.files', 'images.chunks']) {
        const shape = async (db: mongo.Db) =>
          (await db.collection(name).listIndexes().toArray())
            .map((i) => ({ name: i.name, unique: !!i.unique, key: i.key }))
            .sort((a, b) => String(a.name).localeCompare(String(b.name)));
        const indexes = await shape(restored);
        expect(indexes.length).toBeGreaterThan(name === 'products' || name === 'users' ? 2 : 1);
        expect(indexes).toEqual(await shape(sourceDb));
      }
    } finally {
      await source.close();
    }
    const user = await restored.collection('users').findOne({ email: 'backup-admin@example.et' });
    expect(user).not.toBeNull();
    await expect(
      restored.collection('users').insertOne({ ...user, _id: new mongo.ObjectId() }),
    ).rejects.toMatchObject({ code: 11000 });
  });

  it('serves an image uploaded before the backup from the restored database', async () => {
    const app = await startTestApp({ MONGODB_URI: target.uri, MONGODB_DB: dbName });
    try {
      const res = await request(app.http).get(imagePath).buffer(true).expect(200);
      expect(Buffer.compare(res.body as Buffer, image)).toBe(0);
      const products = await request(app.http).get('/api/products').expect(200);
      expect(JSON.stringify(products.body)).toContain(path.basename(imagePath));
    } finally {
      // closes without dropping: startTestApp drops a MONGODB_URI database only through its own connection
      await app.app.close();
    }
  });

  it('refuses a database that holds documents unless --drop is given', async () => {
    const refused = await runScript(RESTORE, ['--from', backupDir], {
      MONGODB_URI: target.uri,
      MONGODB_DB: dbName,
    }).done;
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      new RegExp(`database "${dbName}" is not empty: .*orders \\(\\d+ documents\\)`),
    );
    expect(refused.stderr).toMatch(/--drop/);
    // nothing was written: still one copy of each order
    const count = await restored.collection('orders').countDocuments();
    await restored.collection('orders').insertOne({ note: 'written after the restore' });
    const dropped = await runScript(RESTORE, ['--from', backupDir, '--drop'], {
      MONGODB_URI: target.uri,
      MONGODB_DB: dbName,
    }).done;
    expect(dropped.code).toBe(0);
    expect(await restored.collection('orders').countDocuments()).toBe(count);
    expect(await restored.collection('orders').findOne({ note: 'written after the restore' })).toBeNull();
  });

  it('verifies a backup against its manifest: --verify-only passes a whole copy and names a damaged file', async () => {
    const whole = await runScript(RESTORE, ['--from', backupDir, '--verify-only'], {}).done;
    expect(whole.code).toBe(0);
    expect(whole.stdout).toMatch(/verified: the backup is whole/);
    const damaged = path.join(work, 'damaged');
    cpSync(backupDir, damaged, { recursive: true });
    const file = path.join(damaged, dbName, 'orders.bson');
    const bytes = readFileSync(file);
    bytes[bytes.length - 2] ^= 0xff;
    writeFileSync(file, bytes);
    const run = await runScript(RESTORE, ['--from', damaged], {
      MONGODB_URI: target.uri,
      MONGODB_DB: 'never_written',
    }).done;
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(new RegExp(`${dbName}/orders\\.bson: SHA-256`));
    expect(await restoredClient.db('never_written').listCollections().toArray()).toEqual([]);
  });
});
