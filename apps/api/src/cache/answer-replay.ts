import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { AnswerStore, type Entry } from './answer-store';

/**
 * Public reads kept as answers: anonymous GETs of these routes (Express route paths, global prefix
 * included) are stored as the exact bytes sent, with a strong ETag, and replayed until the next
 * change or the TTL (answer-store.ts).
 */
export const HOT_CACHE_ROUTES = new Set([
  '/api/products',
  '/api/products/:id',
  '/api/categories',
  '/api/settings/public',
]);
/** A cheap first filter; the route actually matched is checked when the answer is stored. */
export const HOT_PATH = /^\/api\/(products(\/[^/]+)?|categories|settings\/public)\/?$/;

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
  'x-request-id', // each request's own (common/logging/request-id.ts), set before any door answers
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
 * Sends kept answers (both doors): the stored headers, CORS computed per request by the very `cors`
 * middleware Express runs, Vary, the strong ETag, 304 on a matching If-None-Match, gzip when accepted.
 */
@Injectable()
export class AnswerReplay {
  private cors?: HeaderMiddleware;
  /** CORS headers of a request without Origin (the same for every such request). */
  corsWithoutOrigin: Record<string, string> = {};

  constructor(private readonly store: AnswerStore) {}

  /** The `cors` middleware Express runs, so that a replay carries exactly the headers Express would set. */
  useCors(cors: HeaderMiddleware): void {
    this.cors = cors;
    this.corsWithoutOrigin = this.corsHeaders({ method: 'GET', headers: {} } as IncomingMessage) ?? {};
  }

  /** Sends a stored answer (200, or 304 on a matching If-None-Match); false if CORS could not be computed. */
  replay(req: IncomingMessage, res: ServerResponse, entry: Entry): boolean {
    const headers = req.headers;
    const wantsGzip = acceptsGzip(headers['accept-encoding']);
    if (wantsGzip && entry.gzip === undefined) this.store.compress(entry);
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
      this.store.counts.hits++;
      return true;
    }
    res.writeHead(200, head);
    res.end(useGzip ? entry.gzip : entry.body);
    this.store.counts.hits++;
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
  corsHeaders(req: IncomingMessage): Record<string, string> | undefined {
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
}

/** Headers of an answer worth replaying: all but the per-request ones and CORS. */
export function storedHeaders(res: Response): Entry['headers'] {
  const headers: Entry['headers'] = {};
  for (const name of res.getHeaderNames()) {
    if (PER_REQUEST_HEADERS.has(name) || CORS_HEADER.test(name)) continue;
    const value = res.getHeader(name);
    if (value !== undefined) headers[name] = typeof value === 'number' ? String(value) : value;
  }
  return headers;
}

/** Anonymous, with no guest cart: nothing personal can be in the answer (Express request, cookies parsed). */
export function cacheable(req: Request): boolean {
  if (req.headers.authorization) return false;
  for (const name of Object.keys(req.headers)) if (PERSONAL_HEADER.test(name)) return false;
  const cookies = req.cookies as Record<string, unknown> | undefined;
  if (cookies) for (const name of Object.keys(cookies)) if (PERSONAL_COOKIE(name)) return false;
  return true;
}

/** The same decision from the raw headers, before cookie-parser: any cookie named like a personal one. */
export function cacheableHeaders(headers: IncomingMessage['headers']): boolean {
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

export function matches(header: string | undefined, etag: string, gzipEtag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => {
    const bare = tag.trim().replace(/^W\//, '');
    return bare === etag || bare === gzipEtag;
  });
}

/** Vary tokens of both, in order, each once (case-insensitive), as `vary` would append them. */
export function mergeVary(first: string | undefined, second: string): string {
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
