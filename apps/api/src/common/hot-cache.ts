import { Global, Inject, Injectable, Module } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { gzip } from 'node:zlib';
import type { NextFunction, Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../config';

/**
 * Public reads answered before Nest's pipeline: anonymous GETs of these routes (Express route
 * paths, global prefix included) are stored as the exact bytes sent, with a gzip copy and a strong
 * ETag, and replayed by an Express middleware until the next write or the TTL.
 */
export const HOT_CACHE_ROUTES = new Set([
  '/api/products',
  '/api/products/:id',
  '/api/categories',
  '/api/settings/public',
]);

/** Largest body kept (a catalogue page is a few tens of kB). */
const MAX_BODY_BYTES = 512 * 1024;
const MAX_ENTRIES = 2000;
/** A cheap first filter; the route actually matched is checked when the answer is stored. */
const HOT_PATH = /^\/api\/(products(\/[^/]+)?|categories|settings\/public)\/?$/;
/** Headers that belong to one request or are recomputed on every hit. */
const PER_REQUEST_HEADERS = new Set(['etag', 'content-length', 'date', 'connection', 'keep-alive', 'vary']);

interface Pending {
  generation: number;
  /** Concurrent misses of the same URL, answered once the first one's answer is stored (no stampede). */
  waiters: (() => void)[];
}

interface Entry {
  status: number;
  headers: [string, string | string[]][];
  body: Buffer;
  gzip?: Buffer;
  etag: string;
  gzipEtag: string;
  expires: number;
}

/**
 * The one invalidation point for public reads: every domain write that can change what an
 * anonymous visitor sees (a product, its stock, a review, a setting) calls `bump()`. Writes made by
 * another instance or a script show within `ttlMs` (HOT_CACHE_TTL_MS, default 2 s; 0 turns it off).
 */
@Injectable()
export class HotCache {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Pending>();
  private generation = 0;
  readonly ttlMs: number;

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'hotCacheTtlMs'>) {
    this.ttlMs = config.hotCacheTtlMs;
  }

  /**
   * Forgets every stored answer; reads already under way when it runs will not store theirs. Call
   * it once the write is durable (after the transaction commits): every read that started earlier is
   * then discarded, and every read that starts later sees the write.
   */
  bump(): void {
    this.generation++;
    this.entries.clear();
  }

  /** Runs a write and bumps once it has settled (committed or failed half-way). */
  async after<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } finally {
      this.bump();
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** The Express middleware; registered after helmet, cookie-parser and CORS so their headers are on every hit. */
  middleware() {
    return (req: Request, res: Response, next: NextFunction): void => {
      if (!this.ttlMs || req.method !== 'GET' || !HOT_PATH.test(req.path) || !cacheable(req)) return next();
      const key = req.url;
      const now = Date.now();
      const hit = this.entries.get(key);
      if (hit && hit.expires > now) {
        this.replay(req, res, hit);
        return;
      }
      if (hit) this.entries.delete(key);
      const running = this.pending.get(key);
      if (running && running.generation === this.generation) {
        running.waiters.push(() => {
          const filled = this.entries.get(key);
          if (filled && filled.expires > Date.now()) this.replay(req, res, filled);
          else next();
        });
        return;
      }
      const mine: Pending = { generation: this.generation, waiters: [] };
      this.pending.set(key, mine);
      const release = () => {
        if (this.pending.get(key) === mine) this.pending.delete(key);
        const waiters = mine.waiters.splice(0);
        for (const waiter of waiters) waiter();
      };
      res.once('close', release);
      this.capture(req, res, key, release);
      next();
    };
  }

  private replay(req: Request, res: Response, entry: Entry): void {
    const useGzip = entry.gzip !== undefined && acceptsGzip(req);
    for (const [name, value] of entry.headers) res.setHeader(name, value);
    res.vary('Accept-Encoding');
    const etag = useGzip ? entry.gzipEtag : entry.etag;
    res.setHeader('ETag', etag);
    if (matches(req.headers['if-none-match'], [entry.etag, entry.gzipEtag])) {
      res.removeHeader('Content-Type');
      res.statusCode = 304;
      res.end();
      return;
    }
    res.statusCode = entry.status;
    const body = useGzip ? (entry.gzip as Buffer) : entry.body;
    if (useGzip) res.setHeader('Content-Encoding', 'gzip');
    res.setHeader('Content-Length', body.length);
    res.end(body);
  }

  /** Lets the real handler answer, then keeps what it sent (a 200 JSON answer of a listed route only). */
  private capture(req: Request, res: Response, key: string, release: () => void): void {
    const generation = this.generation;
    const already = new Set(res.getHeaderNames());
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    (res as { end: (...args: unknown[]) => Response }).end = (...args: unknown[]) => {
      const [chunk, encoding] = args;
      const route = (req.route as { path?: string } | undefined)?.path;
      const body =
        typeof chunk === 'string'
          ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
          : Buffer.isBuffer(chunk)
            ? chunk
            : undefined;
      if (
        res.statusCode === 200 &&
        body !== undefined &&
        body.length <= MAX_BODY_BYTES &&
        route !== undefined &&
        HOT_CACHE_ROUTES.has(route) &&
        !res.getHeader('set-cookie') &&
        String(res.getHeader('content-type') ?? '').startsWith('application/json') &&
        !res.headersSent
      ) {
        const hash = createHash('sha1').update(body).digest('base64url');
        const etag = `"${hash}"`;
        res.vary('Accept-Encoding');
        res.setHeader('ETag', etag);
        if (generation === this.generation) this.store(key, res, already, body, etag, hash, generation);
        if (matches(req.headers['if-none-match'], [etag, `"${hash}-gz"`])) {
          res.statusCode = 304;
          res.removeHeader('Content-Type');
          res.removeHeader('Content-Length');
          end();
          release();
          return res;
        }
      }
      end(...args);
      release();
      return res;
    };
  }

  private store(
    key: string,
    res: Response,
    already: Set<string>,
    body: Buffer,
    etag: string,
    hash: string,
    generation: number,
  ): void {
    const headers: Entry['headers'] = [];
    for (const name of res.getHeaderNames()) {
      if (already.has(name) || PER_REQUEST_HEADERS.has(name)) continue;
      const value = res.getHeader(name);
      if (value !== undefined) headers.push([name, typeof value === 'number' ? String(value) : value]);
    }
    const entry: Entry = {
      status: 200,
      headers,
      body,
      etag,
      gzipEtag: `"${hash}-gz"`,
      expires: Date.now() + this.ttlMs,
    };
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, entry);
    // The gzip copy is made off the request path; until it is ready, hits are sent uncompressed.
    gzip(body, { level: 6 }, (error, compressed) => {
      if (!error && generation === this.generation && this.entries.get(key) === entry)
        entry.gzip = compressed;
    });
  }
}

/** Anonymous, with no guest cart: nothing personal can be in the answer. */
function cacheable(req: Request): boolean {
  if (req.headers.authorization) return false;
  for (const name of Object.keys(req.headers)) if (/^x-(guest-)?cart/.test(name)) return false;
  const cookies = req.cookies as Record<string, unknown> | undefined;
  if (cookies)
    for (const name of Object.keys(cookies)) if (name === 'token' || /cart/i.test(name)) return false;
  return true;
}

function acceptsGzip(req: Request): boolean {
  const header = req.headers['accept-encoding'];
  if (typeof header !== 'string') return false;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

function matches(header: string | undefined, etags: string[]): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => etags.includes(tag.trim().replace(/^W\//, '')));
}

/** Global so every domain service that writes public data can inject the one HotCache. */
@Global()
@Module({ providers: [HotCache], exports: [HotCache] })
export class HotCacheModule {}
