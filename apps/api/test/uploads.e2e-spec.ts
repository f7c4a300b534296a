import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import request from 'supertest';
import { IMAGES_BUCKET } from '../src/modules/uploads/storage/gridfs-image-storage';
import { DEMO_ACCOUNTS } from '../src/seed/seed.service';
import { startTestApp, type TestApp } from './support/test-app';

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('png body'),
]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('jpeg body')]);
const GIF = Buffer.from('GIF89a gif body');

// the same rules whichever storage keeps the images: GridFS (the default) or local disk
describe.each(['gridfs', 'disk'] as const)('uploads (IMAGE_STORAGE=%s)', (storage) => {
  let t: TestApp;
  let dir: string;
  let admin: string;
  let customer: string;
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });
  /** How many images the storage holds. */
  const stored = async () =>
    storage === 'disk'
      ? readdirSync(dir).length
      : t.app.get<Connection>(getConnectionToken()).collection(`${IMAGES_BUCKET}.files`).countDocuments();

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'uploads-test-'));
    t = await startTestApp({ UPLOAD_DIR: dir, IMAGE_STORAGE: storage });
    await request(t.http)
      .post('/api/auth/register-admin')
      .send({
        name: 'Selam Admin',
        email: DEMO_ACCOUNTS.admin.email,
        password: DEMO_ACCOUNTS.admin.password,
        adminSecretKey: t.config.adminSecretKey,
      })
      .expect(201);
    admin = (
      await request(t.http)
        .post('/api/auth/login')
        .send({ email: DEMO_ACCOUNTS.admin.email, password: DEMO_ACCOUNTS.admin.password })
    ).body.token;
    customer = (
      await request(t.http)
        .post('/api/auth/register')
        .send({ name: 'Hanna', email: 'hanna@example.et', password: 'Buna@2026x' })
        .expect(201)
    ).body.token;
  });

  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores PNG, JPEG and GIF images judged by content and answers their URLs', async () => {
    const res = await request(t.http)
      .post('/api/uploads')
      .set(as(admin))
      .attach('images', PNG, { filename: 'serum.png', contentType: 'image/png' })
      .attach('images', JPEG, { filename: 'photo.jpeg', contentType: 'image/jpeg' })
      // a GIF with a misleading name and type is still a GIF
      .attach('images', GIF, { filename: 'notes.txt', contentType: 'text/plain' })
      .expect(201);
    expect(res.body.success).toBe(true);
    expect(res.body.urls).toHaveLength(3);
    // answered absolute from PUBLIC_API_URL
    expect(res.body.urls[0]).toMatch(new RegExp(`^${t.config.publicUrl}/api/uploads/[0-9a-f-]{36}\\.png$`));
    expect(res.body.urls[1]).toMatch(/\.jpg$/);
    expect(res.body.urls[2]).toMatch(/\.gif$/);
    expect(res.body.files[2]).toMatchObject({
      originalName: 'notes.txt',
      contentType: 'image/gif',
      size: GIF.length,
    });
    expect(await stored()).toBe(3);

    const png = await request(t.http).get(new URL(res.body.urls[0]).pathname).expect(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(png.body as Buffer, PNG)).toBe(0);
    expect(png.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const gif = await request(t.http).get(new URL(res.body.urls[2]).pathname).expect(200);
    expect(gif.headers['content-type']).toBe('image/gif');
    expect(Buffer.compare(gif.body as Buffer, GIF)).toBe(0);
  });

  it('accepts an uploaded URL as the product image', async () => {
    const upload = await request(t.http)
      .post('/api/uploads')
      .set(as(admin))
      .attach('images', PNG, 'p.png')
      .expect(201);
    const product = await request(t.http)
      .post('/api/products')
      .set(as(admin))
      .send({ name: 'Uploaded Image Soap', price: 120, stock: 4, image: upload.body.urls[0] })
      .expect(201);
    expect(product.body.product.images).toEqual(upload.body.urls);
  });

  it('refuses a file that is not a PNG, JPG or GIF, whatever its name, storing nothing', async () => {
    const before = await stored();
    const res = await request(t.http)
      .post('/api/uploads')
      .set(as(admin))
      .attach('images', PNG, 'good.png')
      .attach('images', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), {
        filename: 'evil.png',
        contentType: 'image/png',
      })
      .expect(400);
    expect(res.body).toMatchObject({
      success: false,
      statusCode: 400,
      message: 'Only PNG, JPG or GIF images are allowed',
    });
    expect(await stored()).toBe(before);
  });

  it("answers 413 'File size must be less than 5MB' for a file of 5MB or more", async () => {
    const before = await stored();
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024 - PNG.length)]);
    const res = await request(t.http)
      .post('/api/uploads')
      .set(as(admin))
      .attach('images', big, 'big.png')
      .expect(413);
    expect(res.body).toEqual({
      success: false,
      statusCode: 413,
      message: 'File size must be less than 5MB',
      code: 'FILE_TOO_LARGE',
      params: {},
    });
    expect(await stored()).toBe(before);
    const justUnder = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024 - 1 - PNG.length)]);
    await request(t.http)
      .post('/api/uploads')
      .set(as(admin))
      .attach('images', justUnder, 'ok.png')
      .expect(201);
  });

  it('refuses more than 5 files with a clear message', async () => {
    const before = await stored();
    let req = request(t.http).post('/api/uploads').set(as(admin));
    for (let i = 0; i < 6; i++) req = req.attach('images', PNG, `p${i}.png`);
    const res = await req.expect(400);
    expect(res.body).toEqual({
      success: false,
      statusCode: 400,
      message: 'A maximum of 5 files can be uploaded at once',
      code: 'TOO_MANY_FILES',
      params: {},
    });
    expect(await stored()).toBe(before);
    let five = request(t.http).post('/api/uploads').set(as(admin));
    for (let i = 0; i < 5; i++) five = five.attach('images', PNG, `p${i}.png`);
    expect((await five.expect(201)).body.urls).toHaveLength(5);
  });

  it('refuses a request without images, with another field name, or not multipart', async () => {
    const none = await request(t.http).post('/api/uploads').set(as(admin)).field('name', 'x').expect(400);
    expect(none.body.message).toMatch(/No images received/);
    const other = await request(t.http)
      .post('/api/uploads')
      .set(as(admin))
      .attach('image', PNG, 'p.png')
      .expect(400);
    expect(other.body.message).toMatch(/field 'images'/);
    await request(t.http)
      .post('/api/uploads')
      .set(as(admin))
      .send({ images: ['x'] })
      .expect(400);
    await request(t.http)
      .post('/api/uploads')
      .set(as(admin))
      .set('Content-Type', 'multipart/form-data; boundary=xyz')
      .send('--xyz\r\nContent-Disposition: form-data; name="images"; filename="a.png"\r\n\r\nunterminated')
      .expect(400);
  });

  it('keeps guests and customers out, storing nothing', async () => {
    const before = await stored();
    await request(t.http).post('/api/uploads').attach('images', PNG, 'p.png').expect(401);
    const forbidden = await request(t.http)
      .post('/api/uploads')
      .set(as(customer))
      .attach('images', PNG, 'p.png')
      .expect(403);
    expect(forbidden.body).toEqual({
      success: false,
      statusCode: 403,
      message: 'Access denied',
      code: 'ACCESS_DENIED',
      params: {},
    });
    expect(await stored()).toBe(before);
  });

  it('answers 404 for unknown files and never serves anything outside the upload folder', async () => {
    writeFileSync(path.join(dir, 'secret.txt'), 'secret');
    writeFileSync(path.join(path.dirname(dir), 'outside.png'), PNG);
    const unknown = await request(t.http)
      .get('/api/uploads/00000000-0000-0000-0000-000000000000.png')
      .expect(404);
    expect(unknown.body).toEqual({
      success: false,
      statusCode: 404,
      message: 'Image not found',
      code: 'IMAGE_NOT_FOUND',
      params: {},
    });
    await request(t.http).get('/api/uploads/secret.txt').expect(404);
    await request(t.http)
      .get(`/api/uploads/..%2F${path.basename(dir)}%2Fsecret.txt`)
      .expect(404);
    await request(t.http).get('/api/uploads/..%2Foutside.png').expect(404);
    await request(t.http).get('/api/uploads/%2e%2e%2f%2e%2e%2fpackage.json').expect(404);
    rmSync(path.join(path.dirname(dir), 'outside.png'), { force: true });
  });
});
