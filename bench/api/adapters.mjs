#!/usr/bin/env node
// Nest's HTTP adapters compared (issue 18 point 1): the same Nest controller on @nestjs/platform-express
// (what the API uses) and on @nestjs/platform-fastify, next to a bare Node http server (the floor), each
// answering a catalogue page of 20 products (~9 kB JSON): pre-serialised bytes (what HotCache replays)
// and an object serialised on every request. Each server runs in its own process; autocannon here.
//
// @nestjs/platform-fastify is not a dependency of the project: install the adapters into a scratch folder
//   mkdir -p /tmp/nest-adapters && cd /tmp/nest-adapters && npm init -y >/dev/null && \
//     npm i --ignore-scripts @nestjs/common@11 @nestjs/core@11 @nestjs/platform-express@11 @nestjs/platform-fastify@11 reflect-metadata rxjs
//   BENCH_NEST_DIR=/tmp/nest-adapters node bench/api/adapters.mjs      # BENCH_DURATION=10 BENCH_CONNECTIONS=100
//
// Writes bench/results/api-adapters-<YYYY-MM-DD>.json.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(here), '..', '..');
const nestDir = path.resolve(process.env.BENCH_NEST_DIR ?? '/tmp/nest-adapters');
const settings = {
  connections: Number(process.env.BENCH_CONNECTIONS ?? 100),
  durationSeconds: Number(process.env.BENCH_DURATION ?? 10),
  warmupSeconds: Number(process.env.BENCH_WARMUP ?? 3),
};

/** A catalogue page shaped like GET /api/products answers it. */
function page() {
  const products = Array.from({ length: 20 }, (_, i) => ({
    _id: (0x65a000000000000000000000 + i).toString(16).padStart(24, '0'),
    name: `Moringa Glow Serum ${i + 1}`,
    nameAm: 'የሞሪንጋ ሴረም',
    brand: 'Abyssinia Naturals',
    description: 'A natural serum made with moringa from Ethiopia.',
    price: 450 + i,
    originalPrice: 500 + i,
    discount: 10,
    currency: 'ETB',
    images: [`http://localhost:4000/api/assets/products/p${i}.svg`],
    category: 'skincare',
    subCategory: 'serums',
    stock: 10 + i,
    rating: 4.5,
    reviewCount: 12,
    isFeatured: i % 5 === 0,
    createdAt: '2026-11-01T10:00:00.000Z',
  }));
  return { success: true, products, currentPage: 1, totalPages: 500, totalProducts: 10000 };
}

/** Child mode: `adapters.mjs serve <express|fastify|floor> <port>`. */
async function serve(kind, port) {
  const body = page();
  const bytes = Buffer.from(JSON.stringify(body));
  if (kind === 'floor') {
    const http = await import('node:http');
    http
      .createServer((req, res) => {
        if (req.url === '/api/object') {
          const b = JSON.stringify(body);
          res.writeHead(200, {
            'content-type': 'application/json; charset=utf-8',
            'content-length': Buffer.byteLength(b),
          });
          return res.end(b);
        }
        res.writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': bytes.length,
        });
        res.end(bytes);
      })
      .listen(port, '127.0.0.1', () => console.log('listening'));
    return;
  }
  const require = createRequire(path.join(nestDir, 'package.json'));
  require('reflect-metadata');
  const { Controller, Get, Header, Module } = require('@nestjs/common');
  const { NestFactory } = require('@nestjs/core');
  class CatalogueController {
    bytes() {
      return bytes;
    }
    object() {
      return body;
    }
  }
  const method = (name) => Object.getOwnPropertyDescriptor(CatalogueController.prototype, name);
  Get('products')(CatalogueController.prototype, 'bytes', method('bytes'));
  Header('content-type', 'application/json; charset=utf-8')(
    CatalogueController.prototype,
    'bytes',
    method('bytes'),
  );
  Get('object')(CatalogueController.prototype, 'object', method('object'));
  Controller('api')(CatalogueController);
  class AppModule {}
  Module({ controllers: [CatalogueController] })(AppModule);
  let app;
  if (kind === 'express') {
    const { ExpressAdapter } = require('@nestjs/platform-express');
    app = await NestFactory.create(AppModule, new ExpressAdapter(), { logger: false });
  } else {
    const { FastifyAdapter } = require('@nestjs/platform-fastify');
    app = await NestFactory.create(AppModule, new FastifyAdapter(), { logger: false });
  }
  await app.listen(port, '127.0.0.1');
  console.log('listening');
}

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function start(kind) {
  const port = await freePort();
  const child = spawn(process.execPath, [here, 'serve', kind, String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (c) => String(c).includes('listening') && resolve());
    child.once('exit', (code) => reject(new Error(`${kind} server exited (${code})`)));
  });
  return { port, stop: () => new Promise((r) => (child.once('exit', r), child.kill('SIGTERM'))) };
}

async function measure(url) {
  const autocannon = createRequire(import.meta.url)('autocannon');
  const run = (duration) =>
    new Promise((resolve, reject) =>
      autocannon({ url, connections: settings.connections, duration }, (e, r) =>
        e ? reject(e) : resolve(r),
      ),
    );
  if (settings.warmupSeconds) await run(settings.warmupSeconds);
  const r = await run(settings.durationSeconds);
  return {
    requestsPerSec: Math.round(r.requests.average),
    latencyMs: { p50: r.latency.p50, p99: r.latency.p99 },
    errors: r.errors,
    non2xx: r.non2xx,
  };
}

async function main() {
  if (!fs.existsSync(path.join(nestDir, 'node_modules', '@nestjs', 'platform-fastify'))) {
    console.error(`No @nestjs/platform-fastify under ${nestDir}: see the comment at the top of this file.`);
    process.exit(1);
  }
  const results = {};
  for (const kind of ['floor', 'express', 'fastify']) {
    const server = await start(kind);
    try {
      for (const route of ['products', 'object']) {
        const r = await measure(`http://127.0.0.1:${server.port}/api/${route}`);
        results[`${kind} ${route === 'products' ? 'pre-serialised' : 'serialised per request'}`] = r;
        console.log(
          `${kind} /api/${route}: ${r.requestsPerSec} req/s, p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms`,
        );
      }
    } finally {
      await server.stop();
    }
  }
  const floor = results['floor pre-serialised'].requestsPerSec;
  for (const r of Object.values(results))
    r.shareOfFloor = Math.round((r.requestsPerSec / floor) * 1000) / 1000;
  const nest = createRequire(path.join(nestDir, 'package.json'));
  const out = {
    date: new Date().toISOString(),
    settings,
    versions: {
      node: process.version,
      nestCore: nest('@nestjs/core/package.json').version,
      platformExpress: nest('@nestjs/platform-express/package.json').version,
      platformFastify: nest('@nestjs/platform-fastify/package.json').version,
    },
    machine: { nproc: os.availableParallelism?.() ?? os.cpus().length, loadAverage: os.loadavg() },
    results,
  };
  const file = path.join(root, 'bench', 'results', `api-adapters-${out.date.slice(0, 10)}.json`);
  fs.writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
  console.table(
    Object.fromEntries(
      Object.entries(results).map(([k, v]) => [
        k,
        { 'req/s': v.requestsPerSec, share: v.shareOfFloor, p99: v.latencyMs.p99 },
      ]),
    ),
  );
  console.log(`written ${path.relative(root, file)}`);
}

if (process.argv[2] === 'serve') await serve(process.argv[3], Number(process.argv[4]));
else await main();
