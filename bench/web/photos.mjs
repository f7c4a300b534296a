#!/usr/bin/env node
// Bytes of a first visit to the home page with a catalogue of real-sized photos (issue 32 point 3, goal
// <= 250 KB): starts the built API (in-memory engine, seeded) and storefront, uploads one generated phone
// photo per product (3000x4000 JPEG, 1.5-3 MB, with EXIF GPS: soft shapes and sensor noise, like a product
// shot), then opens home in Debian's Chromium at 390 px and sums what crossed the network (CDP
// encodedDataLength: headers and compressed bodies), by type. Each visit is a new browser context (empty
// cache). Visits: device pixel ratios 1 and 3, with and without `Save-Data: on`, English and Amharic.
//
//   node bench/web/photos.mjs                 # uses the existing builds (apps/api/dist, apps/storefront/build)
//   PHOTOS_OUT=path.json node bench/web/photos.mjs
//   PHOTOS_SIGMA=30 ...                       # noisier photos (default 6)
//
// Writes bench/results/photos-<YYYY-MM-DD>.json (or PHOTOS_OUT).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium } from 'playwright-core';
import sharp from 'sharp';
import { CHROME_FLAGS, root, startApiAndStorefront } from './stack.mjs';

const GOAL_BYTES = 250 * 1024;
/** The sensor noise of the generated photos (standard deviation, 0-255): 6 like a phone in daylight; 30 a worst case. */
const SIGMA = Number(process.env.PHOTOS_SIGMA ?? 6);
const ADMIN = { email: 'admin@beauty.et', password: 'Admin@12345' };

/** A phone photo of a product: large soft shapes from a few random pixels, sensor noise, EXIF GPS. */
async function phonePhoto(i) {
  let seed = i * 7919 + 17;
  const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 255;
  const tiny = Buffer.from(Array.from({ length: 6 * 8 * 3 }, random));
  const soft = await sharp(tiny, { raw: { width: 6, height: 8, channels: 3 } })
    .resize(3000, 4000, { kernel: 'cubic' })
    .blur(20)
    .raw()
    .toBuffer();
  const noise = await sharp({
    create: { width: 3000, height: 4000, channels: 3, noise: { type: 'gaussian', mean: 0, sigma: SIGMA } },
  })
    .raw()
    .toBuffer();
  // sharp's gaussian noise is centred on its mean: 0 clips the negative half, so shift by half a sigma
  for (let p = 0; p < soft.length; p++) soft[p] = Math.max(0, Math.min(255, soft[p] + noise[p] - SIGMA / 2));
  return sharp(soft, { raw: { width: 3000, height: 4000, channels: 3 } })
    .jpeg({ quality: 90 })
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
}

async function json(res) {
  const body = await res.json();
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/**
 * Saves the product as answered with `image` as its only image. Fields the answer carries that the
 * form refuses ('property X should not exist': prices the API works out) are left out and it is sent again.
 */
async function putWithImage(api, auth, id, answered, image) {
  const body = { ...answered, images: [image] };
  for (let tries = 0; tries < 5; tries++) {
    const res = await fetch(`${api}/products/${id}`, {
      method: 'PUT',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.ok) return;
    const answer = await res.json();
    const refused = (answer.errors ?? [])
      .map((e) => /^property (\w+) should not exist$/.exec(e.message)?.[1])
      .filter(Boolean);
    if (res.status !== 400 || !refused.length)
      throw new Error(`${res.url}: ${res.status} ${JSON.stringify(answer)}`);
    for (const field of refused) delete body[field];
  }
  throw new Error(`${id}: not saved`);
}

/** Gives every product of the catalogue its own uploaded photo (5 per upload request, as the API allows). */
async function photographCatalogue(api) {
  const { token } = await json(
    await fetch(`${api}/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(ADMIN),
    }),
  );
  const auth = { Authorization: `Bearer ${token}` };
  const { products } = await json(await fetch(`${api}/products?limit=100`));
  const uploads = [];
  let inputBytes = 0;
  let convertMs = 0;
  for (let start = 0; start < products.length; start += 5) {
    const form = new FormData();
    for (let i = start; i < Math.min(start + 5, products.length); i++) {
      const photo = await phonePhoto(i);
      inputBytes += photo.length;
      form.append('images', new Blob([photo], { type: 'image/jpeg' }), `IMG_${1000 + i}.jpg`);
    }
    const started = Date.now();
    const { files } = await json(
      await fetch(`${api}/uploads`, { method: 'POST', headers: auth, body: form }),
    );
    convertMs += Date.now() - started;
    uploads.push(...files);
  }
  for (const [i, { _id }] of products.entries()) {
    const product = await json(await fetch(`${api}/products/${_id}`));
    await putWithImage(api, auth, _id, product, uploads[i].url);
  }
  const copies = uploads.flatMap((u) => u.variants);
  return {
    products: products.length,
    inputMiB: Math.round((inputBytes / 2 ** 20) * 10) / 10,
    uploadMsPerPhoto: Math.round(convertMs / uploads.length),
    copyKiB: Object.fromEntries(
      [320, 640, 1024, 1600].flatMap((w) =>
        ['image/avif', 'image/webp'].map((type) => {
          const sizes = copies.filter((c) => c.width === w && c.type === type).map((c) => c.size);
          const mean = sizes.length ? sizes.reduce((a, b) => a + b, 0) / sizes.length : 0;
          return [`${w} ${type.slice(6)}`, Math.round(mean / 102.4) / 10];
        }),
      ),
    ),
  };
}

/** One first visit: every request's bytes on the wire, by resource type, until the network is quiet. */
async function visit(browser, storefront, { dpr, saveData, lang }) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: dpr,
    isMobile: true,
    hasTouch: true,
    extraHTTPHeaders: saveData ? { 'Save-Data': 'on' } : {},
  });
  if (lang === 'am')
    await context.addCookies([{ name: 'language', value: 'am', domain: '127.0.0.1', path: '/' }]);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const types = new Map();
  const byType = {};
  const images = [];
  cdp.on('Network.responseReceived', (e) => types.set(e.requestId, { type: e.type, url: e.response.url }));
  cdp.on('Network.loadingFinished', (e) => {
    const { type = 'Other', url = '' } = types.get(e.requestId) ?? {};
    byType[type] = (byType[type] ?? 0) + e.encodedDataLength;
    if (type === 'Image') images.push(`${url.split('/').pop()} ${e.encodedDataLength}`);
  });
  await page.goto(storefront + '/', { waitUntil: 'networkidle' });
  // a page whose scripts did not run is no first visit to measure (the build copied may be broken)
  await page.waitForSelector('html[data-hydrated]', { state: 'attached', timeout: 30_000 });
  await page.waitForTimeout(1000);
  await context.close();
  const total = Object.values(byType).reduce((a, b) => a + b, 0);
  return {
    dpr,
    saveData,
    lang,
    totalKiB: Math.round(total / 102.4) / 10,
    byTypeKiB: Object.fromEntries(Object.entries(byType).map(([k, v]) => [k, Math.round(v / 102.4) / 10])),
    images,
  };
}

async function main() {
  const copy = path.join(root, 'apps/storefront/.bench-photos');
  execFileSync(
    'flock',
    [
      '-s',
      '/tmp/build.lock',
      'sh',
      '-c',
      `rm -rf ${copy} && mkdir -p ${copy} && cp -r apps/storefront/build apps/storefront/server apps/storefront/public ${copy}/`,
    ],
    { cwd: root, stdio: 'inherit' },
  );
  const procs = [];
  let browser;
  try {
    const { api, storefront } = await startApiAndStorefront(copy, procs);
    const catalogue = await photographCatalogue(api);
    console.log(`catalogue: ${JSON.stringify(catalogue)}`);
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROME_FLAGS });
    // one visit first, to let the page cache render home with the photos (not counted)
    await visit(browser, storefront, { dpr: 1, saveData: false, lang: 'en' });
    const visits = [];
    for (const lang of ['en', 'am'])
      for (const dpr of [1, 3])
        for (const saveData of [false, true]) {
          const v = await visit(browser, storefront, { dpr, saveData, lang });
          visits.push(v);
          console.log(
            `home ${lang} 390 px @${dpr}x${saveData ? ' Save-Data' : ''}: ${v.totalKiB} KiB ${JSON.stringify(v.byTypeKiB)}${v.totalKiB * 1024 > GOAL_BYTES ? ' OVER 250 KB' : ''}`,
          );
        }
    const out =
      process.env.PHOTOS_OUT ??
      path.join(root, 'bench/results', `photos-${new Date().toISOString().slice(0, 10)}.json`);
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim();
    fs.writeFileSync(
      out,
      `${JSON.stringify({ at: new Date().toISOString(), commit, goalKiB: GOAL_BYTES / 1024, noiseSigma: SIGMA, catalogue, visits }, null, 2)}\n`,
    );
    console.log(`wrote ${path.relative(root, out)}`);
  } finally {
    await browser?.close();
    for (const p of procs.reverse()) await p.stop();
    fs.rmSync(copy, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
