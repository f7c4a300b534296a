import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, Server, ServerResponse } from 'node:http';
import { AnswerReplay, cacheableHeaders, mergeVary, type HeaderMiddleware } from './answer-replay';
import { AnswerStore, MAX_BODY_BYTES, type Pending } from './answer-store';

/**
 * Reads the JSON answer of an anonymous GET of one route from its raw query string, before Express
 * (see `EarlyDoor.answerWith`): the answer Express and Nest would send, or undefined to leave the
 * request to them (anything the reader does not recognise as plainly valid: they validate and refuse).
 */
export type EarlyReader = (query: string) => Promise<string | undefined>;

/** Express's ETag function (`app.get('etag fn')`): weak ETags of the bodies it sends. */
export type ETagFunction = (body: Buffer, encoding?: BufferEncoding) => string | undefined;

/** Headers of a route's 200 answer as Express sent it (but per-request ones and CORS), and its Vary. */
export interface HeaderTemplate {
  headers: Record<string, string | string[]>;
  vary: string;
}

/**
 * The door before Express: `attach(server)` wraps the HTTP server's 'request' listener, so that a
 * kept answer is replayed there, before Express, its router and its middlewares run at all (helmet's
 * headers are replayed from the stored answer, CORS is computed per request by the same `cors`
 * middleware Express runs), and a miss of a route with an early reader is answered by it.
 */
@Injectable()
export class EarlyDoor {
  /** Readers answering misses of a route before Express (by request path), and the headers learnt for them. */
  private readonly readers = new Map<string, EarlyReader>();
  private readonly templates = new Map<string, HeaderTemplate>();
  private etagFn?: ETagFunction;

  constructor(
    private readonly store: AnswerStore,
    private readonly replay: AnswerReplay,
  ) {}

  /**
   * Answers kept hits in the HTTP server's own 'request' listener, before Express: the server's
   * listeners (Express's app) only run for everything else. `cors` must be the very middleware
   * Express runs; `etag` is Express's ETag function, for misses answered by an early reader.
   */
  attach(server: Server, cors: HeaderMiddleware, etag?: ETagFunction): void {
    this.replay.useCors(cors);
    this.etagFn = etag;
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

  /**
   * Lets `reader` answer anonymous GETs of `path` (e.g. `/api/products`, any query) that the store
   * cannot, before Express, Nest's pipeline and its serialisation run: the answer is sent with the
   * headers Express sent for that route's last plain 200 answer (learnt by the capture; until one
   * was seen, Express answers), CORS computed per request, and the ETag Express or the store would
   * set; with the cache on, it is stored as a miss through Express would be. Conditional requests,
   * a body, anything personal, a reader that declines or fails: Express answers.
   */
  answerWith(path: string, reader: EarlyReader): void {
    this.readers.set(path, reader);
  }

  /** Whether the capture should learn the headers of this route's next plain 200 answer. */
  wantsTemplate(route: string): boolean {
    return this.readers.has(route) && !this.templates.has(route);
  }

  learn(route: string, template: HeaderTemplate): void {
    if (!this.templates.has(route)) this.templates.set(route, template);
  }

  /** A fresh entry for an anonymous GET without a body: replayed here; anything else goes on to Express. */
  private answerEarly(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' || this.store.size === 0) return false;
    const url = req.url ?? '';
    // the doubled prefix alias of bootstrap.ts (`/api/api/...`)
    const entry = this.store.fresh(url.startsWith('/api/api/') ? url.slice(4) : url);
    if (!entry) return false;
    const headers = req.headers;
    // a body (which Express's parsers could refuse) or anything personal: the whole pipeline decides
    if (headers['content-length'] !== undefined && headers['content-length'] !== '0') return false;
    if (headers['transfer-encoding'] !== undefined) return false;
    if (!cacheableHeaders(headers)) return false;
    return this.replay.replay(req, res, entry);
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
    const cors = headers.origin === undefined ? this.replay.corsWithoutOrigin : this.replay.corsHeaders(req);
    if (!cors) return false;
    // with the cache on, the answer is what the store's capture makes of Express's (strong ETag, Vary)
    const stored = this.store.ttlMs > 0;
    const pending = this.store.pending;
    if (stored) {
      const running = pending.get(url);
      // the same URL is being answered: Express's middleware waits for it and replays it
      if (running && running.generation === this.store.generation) return false;
    }
    const generation = this.store.generation;
    const mine: Pending = { generation, waiters: [] };
    if (stored) pending.set(url, mine);
    const release = () => {
      if (!stored) return;
      if (pending.get(url) === mine) pending.delete(url);
      for (const waiter of mine.waiters.splice(0)) waiter();
    };
    reader(at < 0 ? '' : url.slice(at + 1)).then(
      (json) => {
        if (json === undefined) {
          release();
          return express(req, res);
        }
        if (stored) this.store.counts.misses++;
        const body = Buffer.from(json, 'utf8');
        const { vary: corsVary, ...corsRest } = cors;
        let etag: string | undefined;
        let vary = template.vary;
        if (stored && body.length <= MAX_BODY_BYTES) {
          const hash = createHash('sha1').update(body).digest('base64url');
          etag = `"${hash}"`;
          vary = mergeVary(vary, 'Accept-Encoding');
          if (generation === this.store.generation)
            this.store.store(url, template.headers, vary, body, etag, hash);
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
}
