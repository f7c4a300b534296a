import { Injectable } from '@nestjs/common';
import type { OutgoingHttpHeaders } from 'node:http';
import { gzip } from 'node:zlib';
import { Changes } from '../common/changes';
import { forgets } from './invalidation';
import { SharedVersion } from './shared-version';

/** Largest body kept (a catalogue page is a few tens of kB). */
export const MAX_BODY_BYTES = 512 * 1024;
/** What an entry costs besides its bodies (key, headers, bookkeeping), counted against the byte bound. */
const ENTRY_OVERHEAD_BYTES = 2048;

/** One kept answer: the exact bytes sent, with a strong ETag (and a gzip copy once asked for). */
export interface Entry {
  key: string;
  /** Every header of the answer as Express sent it, but the per-request ones and CORS. */
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

/** A miss being answered: concurrent misses of the same URL wait for it (no stampede). */
export interface Pending {
  generation: number;
  waiters: (() => void)[];
}

/**
 * The anonymous public answers this instance keeps (by URL), bounded by bytes (HOT_CACHE_MAX_BYTES,
 * default 64 MB), oldest entries dropped first. Forgotten as the invalidation table says (any change
 * of public data here) and whenever the shared version moved; an answer read under an older
 * `generation` is never stored. Filled by the two HTTP doors (http-capture.ts, early-door.ts).
 */
@Injectable()
export class AnswerStore {
  private readonly entries = new Map<string, Entry>();
  /** Misses being answered, by URL. */
  readonly pending = new Map<string, Pending>();
  /**
   * Reads answered from the store (hits: replayed, 200 or 304) and reads it had to let through to a
   * handler or an early reader (misses), as plain numbers the metrics read at each scrape.
   */
  readonly counts = { hits: 0, misses: 0 };
  private moves = 0;
  private totalBytes = 0;

  constructor(
    readonly version: SharedVersion,
    changes: Changes,
  ) {
    const forget = (change: Parameters<typeof forgets>[0]) => {
      if (forgets(change, 'answers')) this.forgetAll();
    };
    // a read under way when a write begins keeps nothing; everything kept is forgotten once it ended
    changes.listen({ begin: forget, changed: forget });
    version.onMoved(() => this.forgetAll());
  }

  /** Moves at every change that forgets the answers: an answer read under an older value is not stored. */
  get generation(): number {
    return this.moves;
  }

  get ttlMs(): number {
    return this.version.ttlMs;
  }

  get maxBytes(): number {
    return this.version.maxBytes;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Bytes held (bodies, gzip copies and a fixed overhead per entry). */
  get bytes(): number {
    return this.totalBytes;
  }

  /** The entry of `key` if it may be served now. */
  fresh(key: string, now = Date.now()): Entry | undefined {
    const entry = this.entries.get(key);
    return entry && this.version.vouches(entry.expires, now) ? entry : undefined;
  }

  /** The entry of `key`, fresh or not. */
  get(key: string): Entry | undefined {
    return this.entries.get(key);
  }

  private forgetAll(): void {
    this.moves++;
    this.entries.clear();
    this.totalBytes = 0;
  }

  store(
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
      expires: Date.now() + this.version.lifeMs,
      bytes: body.length + key.length + ENTRY_OVERHEAD_BYTES,
    };
    this.entries.set(key, entry);
    this.totalBytes += entry.bytes;
    this.evict();
  }

  forget(entry: Entry): void {
    if (this.entries.get(entry.key) !== entry) return;
    this.entries.delete(entry.key);
    this.totalBytes -= entry.bytes;
  }

  /** The gzip copy, made off the request path on the first hit that accepts gzip; until then hits go plain. */
  compress(entry: Entry): void {
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

  /** Drops the oldest entries until the store fits its byte bound. */
  private evict(): void {
    while (this.totalBytes > this.maxBytes && this.entries.size) {
      const oldest = this.entries.values().next().value as Entry;
      this.forget(oldest);
    }
  }
}
