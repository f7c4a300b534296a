/**
 * The taps made offline ('Add to cart', the wishlist heart), kept until the connection returns
 * (docs/decisions/0094-pwa.md). Each tap has its own key, sent as X-Shop-Tap-Key: the storefront carries
 * a key out once (app/tap-keys.server.ts), so a tap sent again because its answer was lost is not added
 * twice. The storage is a parameter (IndexedDB in the service worker, a Map in the tests).
 */
import type { QueuedKind } from './policy';

export interface QueuedTap {
  /** one tap: random, also the storage key */
  key: string;
  kind: QueuedKind;
  /** the action's address (same origin) */
  url: string;
  /** the form's fields as sent (mode=json added: the answer is worded by the page) */
  fields: [string, string][];
  /** when it was tapped (ms) */
  at: number;
}

export interface TapStore {
  all(): Promise<QueuedTap[]>;
  put(tap: QueuedTap): Promise<void>;
  delete(key: string): Promise<void>;
}

/** What a sent tap came to: carried out, refused by the shop (with its i18n key), or still waiting. */
export interface TapResult {
  key: string;
  kind: QueuedKind;
  productId?: string;
  outcome: 'done' | 'refused';
  said?: { key: string; params?: Record<string, string | number> };
}

/** Taps older than this are dropped unsent (a shopper back after two days does not expect them). */
export const MAX_TAP_AGE_MS = 24 * 3600 * 1000;
export const MAX_TAPS = 50;

/** Form fields worth keeping of a cart/wishlist post (no free text: only what these forms send). */
const FIELDS = new Set(['productId', 'variantId', 'quantity', 'redirectTo']);

export function tapFrom(
  kind: QueuedKind,
  url: string,
  form: Iterable<[string, FormDataEntryValue]>,
  key: string,
  at: number,
): QueuedTap {
  const fields: [string, string][] = [];
  for (const [name, value] of form)
    if (FIELDS.has(name) && typeof value === 'string') fields.push([name, value]);
  fields.push(['mode', 'json']);
  return { key, kind, url, fields, at };
}

export async function enqueue(store: TapStore, tap: QueuedTap): Promise<boolean> {
  const waiting = await store.all();
  if (waiting.length >= MAX_TAPS) return false;
  await store.put(tap);
  return true;
}

type Send = (tap: QueuedTap) => Promise<{ status: number; body: unknown }>;

/**
 * Sends the waiting taps in the order they were made. A tap whose answer came back (any status) leaves
 * the queue with its result; a network failure stops the round (the rest wait for the next one); a
 * 5xx keeps the tap for the next round. Too old taps leave unsent.
 */
export async function flush(store: TapStore, send: Send, now: number): Promise<TapResult[]> {
  const taps = (await store.all()).sort((a, b) => a.at - b.at || a.key.localeCompare(b.key));
  const results: TapResult[] = [];
  for (const tap of taps) {
    if (now - tap.at > MAX_TAP_AGE_MS) {
      await store.delete(tap.key);
      continue;
    }
    let answer: { status: number; body: unknown };
    try {
      answer = await send(tap);
    } catch {
      break;
    }
    if (answer.status >= 500) break;
    await store.delete(tap.key);
    const body = (answer.body ?? {}) as { ok?: boolean; said?: TapResult['said'] };
    const ok = answer.status < 400 && body.ok !== false;
    results.push({
      key: tap.key,
      kind: tap.kind,
      productId: tap.fields.find(([name]) => name === 'productId')?.[1],
      outcome: ok ? 'done' : 'refused',
      said: body.said,
    });
  }
  return results;
}

/** A Map-backed store (tests; also the service worker's fallback when IndexedDB is unavailable). */
export function memoryStore(): TapStore {
  const map = new Map<string, QueuedTap>();
  return {
    all: async () => [...map.values()],
    put: async (tap) => void map.set(tap.key, tap),
    delete: async (key) => void map.delete(key),
  };
}
