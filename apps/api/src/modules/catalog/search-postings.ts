import type MiniSearch from 'minisearch';
import type { SearchDocument } from './search-query';

/**
 * MiniSearch's postings held compactly (docs/decisions/0103-search-memory.md). MiniSearch keeps, for
 * each index term and field, a `Map` from a product's numeric id to the term's frequency in that field:
 * ~35 bytes of heap per entry, and at 100,000 products there are millions of entries (the category's
 * ~15 terms alone are in every product of their category). `Postings` is that same map over two
 * typed arrays (ids ascending, frequencies): 5 bytes per entry. It answers every `Map` method
 * MiniSearch calls on it (get, set, delete, size, iteration in the same order: ids ascend in a
 * MiniSearch map too, as numeric ids only grow), so MiniSearch adds, replaces, discards and vacuums
 * over it unchanged and its answers are the same (test/search-postings.spec.ts compares both).
 */

/** A frequency this high is read from `overflow` (a term repeated 255 times in one field of one product). */
const BIG = 255;

/** A term's postings in one field: ids ascending, each with its frequency (0: deleted, skipped). */
export class Postings {
  /** Numeric ids of products, ascending (`length` of them used, deleted ones included). */
  ids: Int32Array;
  freqs: Uint8Array;
  length: number;
  private live: number;
  private overflow?: Map<number, number>;

  constructor(entries: Map<number, number> | Postings) {
    const n = entries.size;
    this.ids = new Int32Array(n);
    this.freqs = new Uint8Array(n);
    this.length = 0;
    this.live = 0;
    for (const [id, freq] of entries) this.set(id, freq);
  }

  get size(): number {
    return this.live;
  }

  /** Where `id` is (its slot), or -1. */
  private find(id: number): number {
    const { ids } = this;
    let low = 0;
    let high = this.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const at = ids[middle];
      if (at === id) return middle;
      if (at < id) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  /** The frequency in slot `i` (0: deleted). */
  freqAt(i: number): number {
    const freq = this.freqs[i];
    return freq === BIG ? (this.overflow?.get(this.ids[i]) ?? BIG) : freq;
  }

  private store(i: number, freq: number): void {
    if (freq >= BIG) {
      this.overflow ??= new Map();
      this.overflow.set(this.ids[i], freq);
      this.freqs[i] = BIG;
    } else {
      this.overflow?.delete(this.ids[i]);
      this.freqs[i] = freq;
    }
  }

  has(id: number): boolean {
    const i = this.find(id);
    return i >= 0 && this.freqs[i] !== 0;
  }

  get(id: number): number | undefined {
    const i = this.find(id);
    return i >= 0 && this.freqs[i] !== 0 ? this.freqAt(i) : undefined;
  }

  set(id: number, freq: number): this {
    if (!(freq > 0)) throw new RangeError(`search postings: frequency ${freq} of product ${id}`);
    const i = this.length && id <= this.ids[this.length - 1] ? this.find(id) : -1;
    if (i >= 0) {
      if (this.freqs[i] === 0) this.live += 1;
      this.store(i, freq);
      return this;
    }
    // a new product: numeric ids only grow, so it goes last (an older id is put in its place)
    if (this.live * 2 < this.length) this.pack();
    if (this.length === this.ids.length) this.grow();
    let at = this.length;
    if (at && id < this.ids[at - 1]) {
      at = lowerBound(this.ids, this.length, id);
      this.ids.copyWithin(at + 1, at, this.length);
      this.freqs.copyWithin(at + 1, at, this.length);
    }
    this.ids[at] = id;
    this.length += 1;
    this.live += 1;
    this.store(at, freq);
    return this;
  }

  /** Marks the slot deleted (the slots stay where they are, so a walk over them may delete as it goes). */
  delete(id: number): boolean {
    const i = this.find(id);
    if (i < 0 || this.freqs[i] === 0) return false;
    this.freqs[i] = 0;
    this.overflow?.delete(id);
    this.live -= 1;
    return true;
  }

  clear(): void {
    this.length = 0;
    this.live = 0;
    this.overflow = undefined;
  }

  /** Drops the deleted slots (only when adding: MiniSearch adds nothing while it walks a map). */
  private pack(): void {
    const { ids, freqs } = this;
    let n = 0;
    for (let i = 0; i < this.length; i++)
      if (freqs[i] !== 0) {
        ids[n] = ids[i];
        freqs[n] = freqs[i];
        n++;
      }
    this.length = n;
  }

  private grow(): void {
    const size = this.ids.length + Math.max(8, this.ids.length >> 3);
    const ids = new Int32Array(size);
    ids.set(this.ids.subarray(0, this.length));
    const freqs = new Uint8Array(size);
    freqs.set(this.freqs.subarray(0, this.length));
    this.ids = ids;
    this.freqs = freqs;
  }

  *entries(): IterableIterator<[number, number]> {
    for (let i = 0; i < this.length; i++) if (this.freqs[i] !== 0) yield [this.ids[i], this.freqAt(i)];
  }

  [Symbol.iterator](): IterableIterator<[number, number]> {
    return this.entries();
  }

  *keys(): IterableIterator<number> {
    for (const [id] of this.entries()) yield id;
  }

  *values(): IterableIterator<number> {
    for (const [, freq] of this.entries()) yield freq;
  }

  forEach(callback: (freq: number, id: number, map: this) => void): void {
    for (const [id, freq] of this.entries()) callback(freq, id, this);
  }
}

function lowerBound(ids: Int32Array, length: number, id: number): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (ids[middle] < id) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** A term's postings by field id, as MiniSearch's index holds them (a `Map`, or `Postings`). */
export type PostingMap = Map<number, number> | Postings;

/** Postings with fewer entries stay `Map`s (two typed arrays cost more than a small map). */
export const COMPACT_FROM = 24;

/**
 * Turns every posting map of the index with at least `from` entries into `Postings`, in place (after a
 * build; maps MiniSearch makes later for new terms stay maps until the next build). Answers the
 * number turned.
 */
export function compactPostings(index: MiniSearch<SearchDocument>, from = COMPACT_FROM): number {
  const tree = (index as unknown as { _index: Iterable<[string, Map<number, PostingMap>]> })._index;
  let turned = 0;
  for (const [, fields] of tree)
    for (const [fieldId, postings] of fields)
      if (postings instanceof Map && postings.size >= from) {
        fields.set(fieldId, new Postings(postings));
        turned++;
      }
  return turned;
}
