import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { AnswerReplay, cacheable, HOT_CACHE_ROUTES, HOT_PATH, matches, storedHeaders } from './answer-replay';
import { AnswerStore, MAX_BODY_BYTES, type Pending } from './answer-store';
import { EarlyDoor } from './early-door';

/**
 * The door inside Express (after helmet, CORS, the body parsers and cookie-parser, before Nest's
 * guards, pipes and serialisation): replays kept answers for requests the early door let through,
 * and stores misses as the handler answers them (one handler run per URL at a time, concurrent misses
 * wait for it and are replayed).
 */
@Injectable()
export class HttpCapture {
  constructor(
    private readonly store: AnswerStore,
    private readonly replay: AnswerReplay,
    private readonly door: EarlyDoor,
  ) {}

  /** The Express middleware; registered after helmet, the body parsers, cookie-parser and CORS. */
  middleware() {
    return (req: Request, res: Response, next: NextFunction): void => {
      if (req.method !== 'GET' || !HOT_PATH.test(req.path) || !cacheable(req)) return next();
      if (this.door.wantsTemplate(req.path)) this.learnHeaders(req, res);
      if (!this.store.ttlMs) return next();
      const key = req.url;
      const hit = this.store.get(key);
      if (hit && this.store.fresh(key) === hit && this.replay.replay(req, res, hit)) return;
      if (hit) this.store.forget(hit);
      const pending = this.store.pending;
      const running = pending.get(key);
      if (running && running.generation === this.store.generation) {
        running.waiters.push(() => {
          const filled = this.store.fresh(key);
          if (filled && this.replay.replay(req, res, filled)) return;
          this.store.counts.misses++;
          next();
        });
        return;
      }
      const mine: Pending = { generation: this.store.generation, waiters: [] };
      pending.set(key, mine);
      const release = () => {
        if (pending.get(key) === mine) pending.delete(key);
        for (const waiter of mine.waiters.splice(0)) waiter();
      };
      res.once('close', release);
      this.store.counts.misses++;
      this.capture(req, res, key, release);
      next();
    };
  }

  /** Keeps the headers of a plain 200 answer of a route that has an early reader (the first one seen). */
  private learnHeaders(req: Request, res: Response): void {
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    (res as { end: (...args: unknown[]) => Response }).end = (...args: unknown[]) => {
      const route = (req.route as { path?: string } | undefined)?.path;
      if (
        route !== undefined &&
        this.door.wantsTemplate(route) &&
        res.statusCode === 200 &&
        !res.getHeader('set-cookie') &&
        String(res.getHeader('content-type') ?? '').startsWith('application/json')
      )
        this.door.learn(route, { headers: storedHeaders(res), vary: String(res.getHeader('vary') ?? '') });
      return end(...args);
    };
  }

  /** Lets the real handler answer, then keeps what it sent (a 200 JSON answer of a listed route only). */
  private capture(req: Request, res: Response, key: string, release: () => void): void {
    const generation = this.store.generation;
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
        if (generation === this.store.generation)
          this.store.store(key, storedHeaders(res), String(res.getHeader('vary') ?? ''), body, etag, hash);
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
}
