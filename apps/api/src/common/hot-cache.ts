import {
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  Optional,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { InjectModel, MongooseModule, Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { createHash } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, Server, ServerResponse } from 'node:http';
import { gzip } from 'node:zlib';
import type { NextFunction, Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../config';
import { isDuplicateKeyError } from './mongo';

/**
 * Public reads answered before Nest's pipeline: anonymous GETs of these routes (Express route
 * paths, global prefix included) are stored as the exact bytes sent, with a strong ETag (and a gzip
 * copy once a client that accepts gzip asks again), and replayed until the next write or the TTL.
 *
 * Two doors, one store:
 * - `attach(server)` wraps the HTTP server's 'request' listener: a hit is answered there, before
 *   Express, its router and its middlewares run at all (helmet's headers are replayed from the stored
 *   answer, CORS is computed per request by the same `cors` middleware Express runs).
 * - `middleware()` sits in Express after helmet, CORS, the body parsers and cookie-parser: it stores
 *   misses (one handler run per URL at a time, concurrent misses wait for it) and replays hits for
 *   requests the first door let through.
 */
export const HOT_CACHE_ROUTES = new Set([
  '/api/products',
  '/api/products/:id',
  '/api/categories',
  '/api/settings/public',
]);

/** Largest body kept (a catalogue page is a few tens of kB). */
const MAX_BODY_BYTES = 512 * 1024;
/** Memoised values (catalogue counts: a number and a key each) kept at most. */
const MAX_MEMOS = 10000;
/** What an entry costs besides its bodies (key, headers, bookkeeping), counted against the byte bound. */
const ENTRY_OVERHEAD_BYTES = 2048;
/** A cheap first filter; the route actually matched is checked when the answer is stored. */
const HOT_PATH = /^\/api\/(products(\/[^/]+)?|categories|settings\/public)\/?$/;
/** Headers that belong to one request or are recomputed on every hit (CORS: per request Origin). */
const PER_REQUEST_HEADERS = new Set([
  'etag',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'date',
  'connection',
  'keep-alive',
  'vary',
]);
const CORS_HEADER = /^access-control-/;
/** Cookies that make a request personal (the session, a guest cart): see `cacheable`. */
const PERSONAL_COOKIE = (name: string) => name === 'token' || /cart/i.test(name);
const PERSONAL_HEADER = /^x-(guest-)?cart/;

/** A connect-style middleware that only sets headers (the `cors` package's, as Express runs it). */
export type HeaderMiddleware = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/**
 * Reads the JSON answer of an anonymous GET of one route from its raw query string, before Express
 * (see `HotCache.answerWith`): the answer Express and Nest would send, or undefined to leave the
 * request to them (anything the reader does not recognise as plainly valid: they validate and refuse).
 */
export type EarlyReader = (query: string) => Promise<string | undefined>;

/** Headers of a route's 200 answer as Express sent it (but per-request ones and CORS), and its Vary. */
interface HeaderTemplate {
  headers: Record<string, string | string[]>;
  vary: string;
}

/** Express's ETag function (`app.get('etag fn')`): weak ETags of the bodies it sends. */
export type ETagFunction = (body: Buffer, encoding?: BufferEncoding) => string | undefined;

interface Pending {
  generation: number;
  /** Concurrent misses of the same URL, answered once the first one's answer is stored (no stampede). */
  waiters: (() => void)[];
}

interface Entry {
  key: string;
  /** Every header of the answer as Express sent it, but those of PER_REQUEST_HEADERS and CORS. */
  headers: Record<string, string | string[]>;
  /** The answer's Vary tokens (CORS's `Origin` and `Accept-Encoding` included). */
  vary: string;
  body: Buffer;
  gzip?: Buffer;
  gzipping?: boolean;
  etag: string;
  gzipEtag: string;
  expires: number;
  bytes: number;
  /** Heads of a hit without Origin, built on the first hit (a miss never pays for them). */
  plainHead?: OutgoingHttpHeaders;
  gzipHead?: OutgoingHttpHeaders;
}

/**
 * The version of everything the hot cache holds, shared by every API instance over the database:
 * each instance increments it once after its public-data writes (`HotCache.bump()`, at its next tick),
 * and reads it every eighth of HOT_CACHE_TTL_MS; when it moved, the instance forgets its answers.
 */
@Schema({ collection: 'cacheversions', versionKey: false })
export class CacheVersion {
  @Prop({ type: String, required: true }) _id!: string;
  @Prop({ required: true }) v!: number;
}
export const CacheVersionSchema = SchemaFactory.createForClass(CacheVersion);
const PUBLIC_DATA = 'public';

/**
 * The one invalidation point for public reads: every domain write that can change what an
 * anonymous visitor sees (a product, its stock, a review, a setting) calls `bump()`, which forgets
 * this instance's answers at once and has the shared version (CacheVersion) moved at the next tick.
 * Writes made by another instance show within `ttlMs` (HOT_CACHE_TTL_MS, default 2 s; 0 turns the
 * cache off): entries are served only while the version was confirmed unchanged less than a quarter
 * of the TTL ago (it is read every eighth of it), so they can live until the version moves, at most
 * `lifeMs` (HOT_CACHE_MAX_AGE_MS, default 60 s: writes made outside any API instance, by a script,
 * say). Without the version (no database model), entries live `ttlMs`.
 * The store is bounded by bytes (HOT_CACHE_MAX_BYTES, default 64 MB), oldest entries dropped first.
 */
@Injectable()
export class HotCache implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('HotCache');
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Pending>();
  private readonly memos = new Map<string, { value: unknown; expires: number }>();
  private generation = 0;
  private totalBytes = 0;
  /** Readers answering misses of a route before Express (by request path), and the headers learnt for them. */
  private readonly readers = new Map<string, EarlyReader>();
  private readonly templates = new Map<string, HeaderTemplate>();
  private etagFn?: ETagFunction;
  private cors?: HeaderMiddleware;
  /** CORS headers of a request without Origin (the same for every such request). */
  private corsWithoutOrigin: Record<string, string> = {};
  readonly ttlMs: number;
  readonly maxBytes: number;
  /** Life of an entry from when it was stored: `maxAgeMs` with the shared version, `ttlMs` without. */
  readonly lifeMs: number;
  private readonly maxAge: number;
  /** Whether entries are tied to the shared version (a database model, and the cache on). */
  private readonly versioned: boolean;
  /** The shared version as last read (or moved by this instance), and when the read that confirmed it started. */
  private knownVersion?: number;
  private confirmedAt = 0;
  /** A bump since the last move of the shared version: the next tick moves it. */
  private unannounced = false;
  private ticking = false;
  private failing = false;
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'hotCacheTtlMs' | 'hotCacheMaxBytes' | 'hotCacheMaxAgeMs'>,
    @Optional() @InjectModel(CacheVersion.name) private readonly versions?: Model<CacheVersion>,
  ) {
    this.ttlMs = config.hotCacheTtlMs;
    this.maxBytes = config.hotCacheMaxBytes ?? 64 * 1024 * 1024;
    this.versioned = this.versions !== undefined && this.versions !== null && this.ttlMs > 0;
    this.lifeMs = this.versioned ? Math.max(this.ttlMs, config.hotCacheMaxAgeMs ?? 0) : this.ttlMs;
    this.maxAge = Math.max(this.ttlMs, config.hotCacheMaxAgeMs ?? 60000);
  }

  onModuleInit(): void {
    if (!this.versioned) return;
    // never awaited: a database that is down at start must not hold the start up (nothing is served meanwhile)
    void this.tick();
    this.timer = setInterval(() => void this.tick(), Math.max(10, Math.floor(this.ttlMs / 8)));
    this.timer.unref();
  }

  onModuleDestroy(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
  }

  /**
   * Forgets every stored answer; reads already under way when it runs will not store theirs. Call
   * it once the write is durable (after the transaction commits): every read that started earlier is
   * then discarded, and every read that starts later sees the write. The shared version moves at the
   * next tick (one move for all the bumps in between: writes never wait for it), and other instances
   * forget their answers once they read it.
   */
  bump(): void {
    this.forgetAll();
    if (this.versioned) this.unannounced = true;
  }

  /**
   * Moves at every `bump()` and whenever the shared version moved: anything derived from public data
   * that was computed under an older value must not be kept (see `ProductFragments`).
   */
  get epoch(): number {
    return this.generation;
  }

  /** Life of things kept until the next write or version move (`lifeMs`, at least HOT_CACHE_MAX_AGE_MS). */
  get maxAgeMs(): number {
    return this.maxAge;
  }

  private forgetAll(): void {
    this.generation++;
    this.entries.clear();
    this.memos.clear();
    this.totalBytes = 0;
  }

  /** Whether something stored until `expires` may be served now. */
  private fresh(expires: number, now: number): boolean {
    if (expires <= now) return false;
    // with the shared version, only while it was confirmed recently (else: the database is unreachable)
    return !this.versioned || now - this.confirmedAt <= this.ttlMs / 4;
  }

  /**
   * Every eighth of the TTL: moves the shared version if this instance wrote since the last tick,
   * else reads it; forgets everything when another instance moved it. A write here is thus seen by
   * the others within TTL/8 (the move) + TTL/4 (their confirmation window) + round trips.
   */
  private async tick(): Promise<void> {
    if (this.ticking || this.stopped || !this.versions) return;
    this.ticking = true;
    const started = Date.now();
    const moving = this.unannounced;
    this.unannounced = false;
    try {
      const doc = moving
        ? await this.versions
            .findOneAndUpdate(
              { _id: PUBLIC_DATA },
              { $inc: { v: 1 } },
              { upsert: true, new: true, projection: { v: 1 } },
            )
            .lean()
            .exec()
        : await this.versions.findById(PUBLIC_DATA, { v: 1 }).lean().exec();
      const version = doc?.v ?? 0;
      this.failing = false;
      if (moving && this.knownVersion !== undefined && version === this.knownVersion + 1) {
        // only this instance moved it since the last read: nothing else to forget
        this.knownVersion = version;
        this.confirmedAt = started;
      } else if (this.knownVersion === undefined || version > this.knownVersion) {
        // another instance moved it (the first read forgets too: nothing stored before it is vouched for)
        this.forgetAll();
        this.knownVersion = version;
        this.confirmedAt = started;
      } else if (version === this.knownVersion) this.confirmedAt = started;
    } catch (error) {
      // move again at the next tick (two first moves at once meet on the upsert's key; or the database is away)
      if (moving) this.unannounced = true;
      if (!this.failing && !isDuplicateKeyError(error))
        this.logger.warn(
          `Public-data version unavailable (answers are not replayed meanwhile): ${String(error)}`,
        );
      this.failing = !isDuplicateKeyError(error);
    } finally {
      this.ticking = false;
    }
  }

  /**
   * A value derived from public data (the catalogue's count of a filter, shared by all its pages),
   * kept under the same rules as a stored answer: forgotten at the next `bump()`, and after `ttlMs`
   * counted from when it started (writes by another instance). A computation that a bump overtook is
   * answered but not kept.
   */
  async memo<T>(key: string, compute: () => Promise<T>): Promise<T> {
    if (!this.ttlMs) return compute();
    const started = Date.now();
    const kept = this.memos.get(key);
    if (kept && this.fresh(kept.expires, started)) return kept.value as T;
    const generation = this.generation;
    const value = await compute();
    if (generation === this.generation) {
      if (kept) this.memos.delete(key);
      if (this.memos.size >= MAX_MEMOS) this.memos.delete(this.memos.keys().next().value as string);
      this.memos.set(key, { value, expires: started + this.lifeMs });
    }
    return value;
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

  /** Bytes held (bodies, gzip copies and a fixed overhead per entry). */
  get bytes(): number {
    return this.totalBytes;
  }

  /**
   * Answers hot hits in the HTTP server's own 'request' listener, before Express: the server's
   * listeners (Express's app) only run for everything else. `cors` must be the very middleware
   * Express runs, so that a hit carries exactly the CORS headers Express would have set; `etag` is
   * Express's ETag function (`app.get('etag fn')`), for misses answered by an early reader.
   */
  attach(server: Server, cors: HeaderMiddleware, etag?: ETagFunction): void {
    this.cors = cors;
    this.etagFn = etag;
    this.corsWithoutOrigin = this.corsHeaders({ method: 'GET', headers: {} } as IncomingMessage) ?? {};
    const listeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
    server.removeAllListeners('request');
    const express = (req: IncomingMessage, res: ServerResponse) => {
      for (const listener of listeners) listener.call(server, req, res);
    };
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (this.answerEarly(req, res)) return;
      if (this.readers.size && this.readEarly(req, res, express)) return;
      express(req, res);
    });
  }

  /** A fresh entry for an anonymous GET without a body: replayed here; anything else goes on to Express. */
  private answerEarly(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' || this.entries.size === 0) return false;
    const url = req.url ?? '';
    // the doubled prefix alias of bootstrap.ts (`/api/api/...`)
    const entry = this.entries.get(url.startsWith('/api/api/') ? url.slice(4) : url);
    if (!entry || !this.fresh(entry.expires, Date.now())) return false;
    const headers = req.headers;
    // a body (which Express's parsers could refuse) or anything personal: the whole pipeline decides
    if (headers['content-length'] !== undefined && headers['content-length'] !== '0') return false;
    if (headers['transfer-encoding'] !== undefined) return false;
    if (!cacheableHeaders(headers)) return false;
    return this.replay(req, res, entry);
  }

  /**
   * Lets `reader` answer anonymous GETs of `path` (e.g. `/api/products`, any query) that the store
   * cannot, before Express, Nest's pipeline and its serialisation run: the answer is sent with the
   * headers Express sent for that route's last plain 200 answer (learnt by the middleware; until
   * one was seen, Express answers), CORS computed per request, and the ETag Express or the store
   * would set; with the cache on, it is stored as a miss through Express would be. Conditional
   * requests, a body, anything personal, a reader that declines or fails: Express answers.
   */
  answerWith(path: string, reader: EarlyReader): void {
    this.readers.set(path, reader);
  }

  /** A miss answered by a registered reader (true: it took the request; `express` is called if it gives up). */
  private readEarly(
    req: IncomingMessage,
    res: ServerResponse,
    express: (req: IncomingMessage, res: ServerResponse) => void,
  ): boolean {
    if (req.method !== 'GET') return false;
    const raw = req.url ?? '';
    const url = raw.startsWith('/api/api/') ? raw.slice(4) : raw;
    const at = url.indexOf('?');
    const path = at < 0 ? url : url.slice(0, at);
    const reader = this.readers.get(path);
    const template = reader && this.templates.get(path);
    if (!reader || !template) return false;
    const headers = req.headers;
    if (headers['content-length'] !== undefined && headers['content-length'] !== '0') return false;
    if (headers['transfer-encoding'] !== undefined) return false;
    // conditional requests: Express (or the store) decides between 200 and 304
    if (headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined) return false;
    if (!cacheableHeaders(headers)) return false;
    // CORS's answer to a request without Origin is the same for all (as replays use it)
    const cors = headers.origin === undefined ? this.corsWithoutOrigin : this.corsHeaders(req);
    if (!cors) return false;
    // with the cache on, the answer is what the store's capture makes of Express's (strong ETag, Vary)
    const stored = this.ttlMs > 0;
    if (stored) {
      const running = this.pending.get(url);
      // the same URL is being answered: Express's middleware waits for it and replays it
      if (running && running.generation === this.generation) return false;
    }
    const generation = this.generation;
    const mine: Pending = { generation, waiters: [] };
    if (stored) this.pending.set(url, mine);
    const release = () => {
      if (!stored) return;
      if (this.pending.get(url) === mine) this.pending.delete(url);
      for (const waiter of mine.waiters.splice(0)) waiter();
    };
    reader(at < 0 ? '' : url.slice(at + 1)).then(
      (json) => {
        if (json === undefined) {
          release();
          return express(req, res);
        }
        const body = Buffer.from(json, 'utf8');
        const { vary: corsVary, ...corsRest } = cors;
        let etag: string | undefined;
        let vary = template.vary;
        if (stored && body.length <= MAX_BODY_BYTES) {
          const hash = createHash('sha1').update(body).digest('base64url');
          etag = `"${hash}"`;
          vary = mergeVary(vary, 'Accept-Encoding');
          if (generation === this.generation) this.store(url, template.headers, vary, body, etag, hash);
        } else etag = this.etagFn?.(body);
        const head: OutgoingHttpHeaders = { ...template.headers, ...corsRest };
        const allVary = mergeVary(corsVary, vary);
        if (allVary) head.vary = allVary;
        head['content-length'] = String(body.length);
        if (etag) head.etag = etag;
        res.writeHead(200, head);
        res.end(body);
        release();
      },
      () => {
        // the database failed or the reader did: Express runs the route and answers whatever it meets
        release();
        if (!res.headersSent) express(req, res);
      },
    );
    return true;
  }

  /** Keeps the headers of a plain 200 answer of a route that has an early reader (the first one seen). */
  private learnHeaders(req: Request, res: Response): void {
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    (res as { end: (...args: unknown[]) => Response }).end = (...args: unknown[]) => {
      const route = (req.route as { path?: string } | undefined)?.path;
      if (
        route !== undefined &&
        this.readers.has(route) &&
        !this.templates.has(route) &&
        res.statusCode === 200 &&
        !res.getHeader('set-cookie') &&
        String(res.getHeader('content-type') ?? '').startsWith('application/json')
      ) {
        this.templates.set(route, {
          headers: this.storedHeaders(res),
          vary: String(res.getHeader('vary') ?? ''),
        });
      }
      return end(...args);
    };
  }

  /** The Express middleware; registered after helmet, the body parsers, cookie-parser and CORS. */
  middleware() {
    return (req: Request, res: Response, next: NextFunction): void => {
      if (req.method !== 'GET' || !HOT_PATH.test(req.path) || !cacheable(req)) return next();
      if (this.readers.has(req.path) && !this.templates.has(req.path)) this.learnHeaders(req, res);
      if (!this.ttlMs) return next();
      const key = req.url;
      const now = Date.now();
      const hit = this.entries.get(key);
      if (hit && this.fresh(hit.expires, now) && this.replay(req, res, hit)) return;
      if (hit) this.forget(hit);
      const running = this.pending.get(key);
      if (running && running.generation === this.generation) {
        running.waiters.push(() => {
          const filled = this.entries.get(key);
          if (!(filled && this.fresh(filled.expires, Date.now()) && this.replay(req, res, filled))) next();
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

  /** Sends a stored answer (200, or 304 on a matching If-None-Match); false if CORS could not be computed. */
  private replay(req: IncomingMessage, res: ServerResponse, entry: Entry): boolean {
    const headers = req.headers;
    const wantsGzip = acceptsGzip(headers['accept-encoding']);
    if (wantsGzip && entry.gzip === undefined) this.compress(entry);
    const useGzip = wantsGzip && entry.gzip !== undefined;
    let head = useGzip
      ? (entry.gzipHead ??= this.head(entry, true))
      : (entry.plainHead ??= this.head(entry, false));
    if (headers.origin !== undefined) {
      const cors = this.corsHeaders(req);
      if (!cors) return false;
      head = { ...head, ...cors, vary: mergeVary(cors.vary, entry.vary) };
    }
    if (matches(headers['if-none-match'], entry.etag, entry.gzipEtag)) {
      const notModified: OutgoingHttpHeaders = { ...head };
      delete notModified['content-type'];
      delete notModified['content-length'];
      delete notModified['content-encoding'];
      res.writeHead(304, notModified);
      res.end();
      return true;
    }
    res.writeHead(200, head);
    res.end(useGzip ? entry.gzip : entry.body);
    return true;
  }

  /** The whole head of a hit without Origin: stored headers, CORS's constant part, Vary, ETag, length. */
  private head(entry: Entry, gzipped: boolean): OutgoingHttpHeaders {
    const body = gzipped ? (entry.gzip as Buffer) : entry.body;
    return {
      ...entry.headers,
      ...this.corsWithoutOrigin,
      vary: mergeVary(this.corsWithoutOrigin.vary, entry.vary),
      etag: gzipped ? entry.gzipEtag : entry.etag,
      ...(gzipped ? { 'content-encoding': 'gzip' } : {}),
      'content-length': String(body.length),
    };
  }

  /** CORS headers as the `cors` middleware sets them for this request (synchronous for a static config). */
  private corsHeaders(req: IncomingMessage): Record<string, string> | undefined {
    if (!this.cors) return {};
    const recorded: Record<string, string> = {};
    const recorder = {
      getHeader: (name: string) => recorded[name.toLowerCase()],
      setHeader: (name: string, value: string | number) => {
        recorded[name.toLowerCase()] = String(value);
      },
    };
    let done = false;
    let failed = false;
    this.cors(req, recorder as unknown as ServerResponse, (error?: unknown) => {
      done = true;
      failed = error !== undefined && error !== null;
    });
    return done && !failed ? recorded : undefined;
  }

  /** The gzip copy, made off the request path on the first hit that accepts gzip; until then hits go plain. */
  private compress(entry: Entry): void {
    if (entry.gzipping) return;
    entry.gzipping = true;
    gzip(entry.body, { level: 6 }, (error, compressed) => {
      if (error || this.entries.get(entry.key) !== entry) return;
      entry.gzip = compressed;
      entry.bytes += compressed.length;
      this.totalBytes += compressed.length;
      this.evict();
    });
  }

  /** Lets the real handler answer, then keeps what it sent (a 200 JSON answer of a listed route only). */
  private capture(req: Request, res: Response, key: string, release: () => void): void {
    const generation = this.generation;
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
        if (generation === this.generation)
          this.store(key, this.storedHeaders(res), String(res.getHeader('vary') ?? ''), body, etag, hash);
        if (matches(req.headers['if-none-match'], etag, `"${hash}-gz"`)) {
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

  /** Headers of an answer worth replaying: all but those of PER_REQUEST_HEADERS and CORS. */
  private storedHeaders(res: Response): Entry['headers'] {
    const headers: Entry['headers'] = {};
    for (const name of res.getHeaderNames()) {
      if (PER_REQUEST_HEADERS.has(name) || CORS_HEADER.test(name)) continue;
      const value = res.getHeader(name);
      if (value !== undefined) headers[name] = typeof value === 'number' ? String(value) : value;
    }
    return headers;
  }

  private store(
    key: string,
    headers: Entry['headers'],
    vary: string,
    body: Buffer,
    etag: string,
    hash: string,
  ): void {
    if (this.maxBytes <= 0) return;
    const previous = this.entries.get(key);
    if (previous) this.forget(previous);
    const entry: Entry = {
      key,
      headers,
      vary,
      body,
      etag,
      gzipEtag: `"${hash}-gz"`,
      expires: Date.now() + this.lifeMs,
      bytes: body.length + key.length + ENTRY_OVERHEAD_BYTES,
    };
    this.entries.set(key, entry);
    this.totalBytes += entry.bytes;
    this.evict();
  }

  private forget(entry: Entry): void {
    if (this.entries.get(entry.key) !== entry) return;
    this.entries.delete(entry.key);
    this.totalBytes -= entry.bytes;
  }

  /** Drops the oldest entries until the store fits its byte bound. */
  private evict(): void {
    while (this.totalBytes > this.maxBytes && this.entries.size) {
      const oldest = this.entries.values().next().value as Entry;
      this.forget(oldest);
    }
  }
}

/** Anonymous, with no guest cart: nothing personal can be in the answer (Express request, cookies parsed). */
function cacheable(req: Request): boolean {
  if (req.headers.authorization) return false;
  for (const name of Object.keys(req.headers)) if (PERSONAL_HEADER.test(name)) return false;
  const cookies = req.cookies as Record<string, unknown> | undefined;
  if (cookies) for (const name of Object.keys(cookies)) if (PERSONAL_COOKIE(name)) return false;
  return true;
}

/** The same decision from the raw headers, before cookie-parser: any cookie named like a personal one. */
function cacheableHeaders(headers: IncomingMessage['headers']): boolean {
  if (headers.authorization !== undefined) return false;
  for (const name in headers)
    if (name.charCodeAt(0) === 120 /* x */ && PERSONAL_HEADER.test(name)) return false;
  const cookie = headers.cookie;
  if (cookie !== undefined)
    for (const pair of cookie.split(';')) {
      const at = pair.indexOf('=');
      if (PERSONAL_COOKIE((at < 0 ? pair : pair.slice(0, at)).trim())) return false;
    }
  return true;
}

function acceptsGzip(header: string | undefined): boolean {
  if (typeof header !== 'string') return false;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

function matches(header: string | undefined, etag: string, gzipEtag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => {
    const bare = tag.trim().replace(/^W\//, '');
    return bare === etag || bare === gzipEtag;
  });
}

/** Vary tokens of both, in order, each once (case-insensitive), as `vary` would append them. */
function mergeVary(first: string | undefined, second: string): string {
  const tokens: string[] = [];
  const seen = new Set<string>();
  for (const list of [first ?? '', second])
    for (const raw of list.split(',')) {
      const token = raw.trim();
      if (token && !seen.has(token.toLowerCase())) {
        seen.add(token.toLowerCase());
        tokens.push(token);
      }
    }
  return tokens.join(', ');
}

/** Global so every domain service that writes public data can inject the one HotCache. */
@Global()
@Module({
  imports: [MongooseModule.forFeature([{ name: CacheVersion.name, schema: CacheVersionSchema }])],
  providers: [HotCache],
  exports: [HotCache],
})
export class HotCacheModule {}
