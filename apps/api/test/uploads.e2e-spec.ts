import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import sharp from 'sharp';
import request from 'supertest';
import { IMAGES_BUCKET } from '../src/modules/uploads/storage/gridfs-image-storage';
import { DEMO_ACCOUNTS } from '../src/seed/seed.service';
import { startTestApp, type TestApp } from './support/test-app';

/** A phone photo: noisy, 3000x4000 stored sideways with EXIF orientation 6 and a GPS position. */
const phonePhoto = () =>
  sharp({
    create: {
      width: 4000,
      height: 3000,
      channels: 3,
      background: '#b07040',
      noise: { type: 'gaussian', mean: 120, sigma: 25 },
    },
  })
    .jpeg({ quality: 80 })
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: 'PhoneMaker', Model: 'Camera 9' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '9/1 1/1 48/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '38/1 45/1 0/1',
      },
    })
    .toBuffer();
const solid = (width: number, height: number, colour: string) =>
  sharp({ create: { width, height, channels: 4, background: colour } });

let JPEG: Buffer;
let PNG: Buffer;
let WEBP: Buffer;
let GIF: Buffer;
const FAKE_GIF = Buffer.from('GIF89a gif body');
const FAKE_PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('no pixels'),
]);

beforeAll(async () => {
  JPEG = await phonePhoto();
  PNG = await solid(500, 400, '#2e7d32').png().toBuffer();
  WEBP = await solid(900, 600, '#ffc107').webp().toBuffer();
  GIF = await solid(300, 200, '#6d4c41').gif().toBuffer();
}, 60_000);

/** The copies a stored image name promises: <stem>-<width>.avif|webp. */
const copyUrl = (url: string, width: number, format: 'avif' | 'webp') =>
  url.replace(/\.webp$/, `-${width}.${format}`);

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

  it('turns a phone photo into WebP and AVIF copies at 320/640/1024/1600, upright, EXIF and GPS gone', async () => {
    expect(await sharp(JPEG).metadata()).toMatchObject({ width: 4000, height: 3000, orientation: 6 });
    expect(JPEG.includes('PhoneMaker')).toBe(true);
    const res = await request(t.http)
      .post('/api/uploads')
      .set(as(admin))
      .attach('images', JPEG, { filename: 'IMG_2041.jpg', contentType: 'image/jpeg' })
      .expect(201);
    expect(res.body.success).toBe(true);
    const [file] = res.body.files;
    // answered absolute from PUBLIC_API_URL; the name is the content hash, the size and the colour
    const url: string = res.body.urls[0];
    expect(url).toMatch(
      new RegExp(`^${t.config.publicUrl}/api/uploads/[0-9a-f]{24}-1600x2133-[0-9a-f]{6}\\.webp$`),
    );
    // turned upright by its EXIF orientation: 4000x3000 sideways is a 3000x4000 portrait
    expect(file).toMatchObject({
      url,
      originalName: 'IMG_2041.jpg',
      contentType: 'image/jpeg',
      size: JPEG.length,
      width: 1600,
      height: 2133,
    });
    expect(file.placeholder).toMatch(/^#[0-9a-f]{6}$/);
    expect(url).toContain(`-${file.placeholder.slice(1)}.webp`);
    const widths = [320, 640, 1024, 1600];
    expect(file.variants.map((v: { width: number; type: string }) => `${v.width} ${v.type}`)).toEqual(
      widths.flatMap((w) => [`${w} image/avif`, `${w} image/webp`]),
    );
    for (const w of widths)
      for (const format of ['avif', 'webp'] as const) {
        const copy = await request(t.http)
          .get(new URL(copyUrl(url, w, format)).pathname)
          .expect(200);
        expect(copy.headers['content-type']).toBe(`image/${format}`);
        const meta = await sharp(copy.body as Buffer).metadata();
        expect(meta.format).toBe(format === 'avif' ? 'heif' : 'webp');
        expect(meta.width).toBe(w);
        expect(meta.height).toBe(Math.round((w * 4000) / 3000));
        expect(meta.exif).toBeUndefined();
        expect(meta.xmp).toBeUndefined();
        expect(meta.orientation).toBeUndefined();
        // far smaller than the 3000x4000 original
        expect(copy.body.length).toBeLessThan(JPEG.length / 4);
      }
    const largest = await request(t.http).get(new URL(url).pathname).expect(200);
    expect(largest.headers['content-type']).toBe('image/webp');
    expect((await sharp(largest.body as Buffer).metadata()).exif).toBeUndefined();
    expect((largest.body as Buffer).includes('PhoneMaker')).toBe(false);
  });

  it('never makes a small photo bigger; PNG, WebP and GIF are taken, unreadable ones refused', async () => {
    const res = await request(t.http)
      .post('/api/uploads')
      .set(as(admin))
      .attach('images', PNG, { filename: 'leaf.png', contentType: 'image/png' })
      // a WebP with a misleading name and type is still a WebP
      .attach('images', WEBP, { filename: 'notes.txt', contentType: 'text/plain' })
      .expect(201);
    const [png, webp] = res.body.files;
    expect(png).toMatchObject({ contentType: 'image/png', width: 500, height: 400 });
    expect(png.url).toMatch(new RegExp(`-500x400-${png.placeholder.slice(1)}\\.webp$`));
    // the dominant colour, near the green the picture is made of (#2e7d32)
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(png.placeholder.slice(i, i + 2), 16));
    expect(Math.abs(r - 0x2e) + Math.abs(g - 0x7d) + Math.abs(b - 0x32)).toBeLessThan(48);
    expect(png.variants.map((v: { width: number }) => v.width)).toEqual([320, 320, 500, 500]);
    expect(webp).toMatchObject({
      contentType: 'image/webp',
      width: 900,
      height: 600,
      originalName: 'notes.txt',
    });
    expect(webp.variants.map((v: { width: number }) => v.width)).toEqual([320, 320, 640, 640, 900, 900]);
    const big = await request(t.http)
      .get(new URL(copyUrl(png.url, 500, 'avif')).pathname)
      .expect(200);
    expect((await sharp(big.body as Buffer).metadata()).width).toBe(500);
    // no copy wider than the photo exists
    await request(t.http)
      .get(new URL(copyUrl(png.url, 640, 'avif')).pathname)
      .expect(404);

    // a GIF (the specification's third type) is taken: its first frame becomes the photo's copies
    const gif = await request(t.http)
      .post('/api/uploads')
      .set(as(admin))
      .attach('images', GIF, { filename: 'leaf.gif', contentType: 'image/gif' })
      .expect(201);
    expect(gif.body.files[0]).toMatchObject({ contentType: 'image/gif', width: 300, height: 200 });
    expect(gif.body.files[0].url).toMatch(/-300x200-[0-9a-f]{6}\.webp$/);
    const before = await stored();
    // the GIF magic bytes without a picture behind them: refused, nothing stored
    const fakeGif = await request(t.http)
      .post('/api/uploads')
      .set(as(admin))
      .attach('images', PNG, 'fine.png')
      .attach('images', FAKE_GIF, { filename: 'anim.gif', contentType: 'image/gif' })
      .expect(400);
    expect(fakeGif.body).toMatchObject({ code: 'INVALID_UPLOAD' });
    expect(await stored()).toBe(before);
    // the PNG magic bytes without a picture behind them
    const broken = await request(t.http)
      .post('/api/uploads')
      .set(as(admin))
      .attach('images', WEBP, 'fine.webp')
      .attach('images', FAKE_PNG, 'broken.png')
      .expect(400);
    expect(broken.body).toMatchObject({ code: 'INVALID_UPLOAD', statusCode: 400 });
    expect(await stored()).toBe(before);
  });

  it('serves copies immutable with a strong ETag and answers 304 to If-None-Match', async () => {
    const res = await request(t.http)
      .post('/api/uploads')
      .set(as(admin))
      .attach('images', PNG, 'p.png')
      .expect(201);
    const path640 = new URL(copyUrl(res.body.urls[0], 320, 'avif')).pathname;
    const first = await request(t.http).get(path640).expect(200);
    expect(first.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const etag = first.headers.etag;
    expect(etag).toMatch(/^"[^"]+"$/); // strong: no W/
    const again = await request(t.http).get(path640).set('If-None-Match', etag).expect(304);
    expect(again.headers.etag).toBe(etag);
    expect(again.body).toEqual({});
    await request(t.http).get(path640).set('If-None-Match', '"other"').expect(200);
    // the same photo uploaded twice is the same name, stored once
    const before = await stored();
    const twice = await request(t.http)
      .post('/api/uploads')
      .set(as(admin))
      .attach('images', PNG, 'q.png')
      .expect(201);
    expect(twice.body.urls).toEqual(res.body.urls);
    expect(await stored()).toBe(before);
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

  it('refuses a file that is not a PNG, JPEG, GIF or WebP, whatever its name, storing nothing', async () => {
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
      message: 'Only PNG, JPEG, GIF or WebP images are allowed',
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
    // a phone photo of a few MB under the limit is taken
    expect(JPEG.length).toBeGreaterThan(1024 * 1024);
    expect(JPEG.length).toBeLessThan(5 * 1024 * 1024);
    await request(t.http).post('/api/uploads').set(as(admin)).attach('images', JPEG, 'ok.jpg').expect(201);
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
