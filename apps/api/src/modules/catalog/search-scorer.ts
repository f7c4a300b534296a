import type MiniSearch from 'minisearch';
import { Postings, type PostingMap } from './search-postings';
import type { SearchDocument } from './search-query';

/**
 * MiniSearch's scoring of one query word, done over typed arrays (docs/decisions/0090-search-speed.md).
 *
 * MiniSearch finds the index's terms a query word stands for (the word itself, the terms it starts
 * when it is the last word, the terms within its typos) on its radix tree, which is cheap; scoring
 * every posting of those terms into a Map of result objects is not (a word in every product made
 * 100,000 objects per query). Here each index term's postings are read once into a sparse vector
 * (products by MiniSearch's numeric id, ascending, and the term's BM25 score in each, every field's
 * boost applied), kept until the index changes, and a query word's score is the weighted sum of its
 * terms' vectors: the same formula, weights and "quality" (how many of the word's spellings matched)
 * as `MiniSearch.search` with one word, so the answers are MiniSearch's (test/search-scorer.spec.ts
 * compares both).
 */

/**
 * MiniSearch's postings of one term: by field id, the products (numeric ids) and the term's frequency
 * (a `Map`, or the same over typed arrays after a build: search-postings.ts).
 */
type FieldTermData = Map<number, PostingMap>;

/** The parts of a MiniSearch 7 index read here (not part of its typed API; pinned by test/search-scorer.spec.ts). */
interface Internals {
  _index: {
    get(term: string): FieldTermData | undefined;
    atPrefix(prefix: string): Iterable<[string, FieldTermData]>;
    fuzzyGet(term: string, maxDistance: number): Map<string, [FieldTermData, number]>;
  };
  _documentIds: Map<number, string>;
  _idToShortId: Map<string, number>;
  _fieldIds: Record<string, number>;
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
  _documentCount: number;
  _nextId: number;
}

/** One spelling of a query word, as MiniSearch's query spec has it. */
export interface WordForm {
  term: string;
  prefix: boolean;
  /** Edits allowed (0: none). */
  fuzzy: number;
  /** The spelling's weight (MiniSearch's `boostTerm`). */
  boost: number;
}

/** A sparse vector over products: numeric ids ascending, and a value for each. */
export interface Vector {
  docs: Int32Array;
  values: Float64Array;
}

/** A query word's matches: the products and their scores, and the index terms it stood for. */
export interface WordScores extends Vector {
  terms: readonly string[];
}

/** MiniSearch's defaults (weights of a prefix and a typo match, BM25+ parameters). */
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
const K = 1.2;
const B = 0.7;
const D = 0.5;

/** The first place from `from` on whose id is not below `doc` (ids ascend). */
export function lowerBound(docs: Int32Array, from: number, doc: number): number {
  let low = from;
  let high = docs.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (docs[middle] < doc) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Sorted ids in a vector: binary search. */
export function indexOf(docs: Int32Array, doc: number): number {
  let low = 0;
  let high = docs.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const at = docs[middle];
    if (at === doc) return middle;
    if (at < doc) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

const EMPTY: Vector = { docs: new Int32Array(0), values: new Float64Array(0) };

/**
 * The ids marked in `marked` (not `unmarked`), ascending: a sort of the few touched ones, or a walk
 * over every id when they are many (sorting 100,000 ids costs more than reading 100,000 slots).
 */
function ascending(touched: number[], marked: Int16Array, limit: number): Int32Array {
  if (touched.length * 16 < limit) return Int32Array.from(touched).sort();
  const docs = new Int32Array(touched.length);
  let n = 0;
  for (let doc = 0; doc < limit; doc++) if (marked[doc] !== -1) docs[n++] = doc;
  return docs;
}

export class Scorer {
  private readonly internals: Internals;
  private readonly fields: readonly [fieldId: number, boost: number][];
  private readonly vectors = new Map<string, Vector>();
  private vectorEntries = 0;
  /** Scratch space by numeric id, reused by every word (zero between words). */
  private score = new Float64Array(0);
  private quality = new Uint8Array(0);
  private lastForm = new Int16Array(0);

  constructor(
    index: MiniSearch<SearchDocument>,
    boosts: Readonly<Record<string, number>>,
    /** Term vectors kept at most (entries over all terms; a term in every product counts them all). */
    private readonly maxEntries = 6_000_000,
  ) {
    this.internals = index as unknown as Internals;
    this.fields = Object.keys(boosts).map((field) => [this.internals._fieldIds[field], boosts[field] || 1]);
  }

  /** The numeric id of a product in the index (undefined when it is not there). */
  shortId(id: string): number | undefined {
    return this.internals._idToShortId.get(id);
  }

  /** Numeric ids are below this. */
  get idLimit(): number {
    return this.internals._nextId;
  }

  /** The index changed: the term vectors (their BM25 depends on every product) are read again. */
  clear(): void {
    this.vectors.clear();
    this.vectorEntries = 0;
  }

  /** A term's vector: per product, Σ over fields of the field's boost × BM25+ (MiniSearch's `termResults`). */
  private vector(term: string, data: FieldTermData): Vector {
    const kept = this.vectors.get(term);
    if (kept) return kept;
    const { _documentIds: ids, _fieldLength: lengths, _avgFieldLength: averages } = this.internals;
    const total = this.internals._documentCount;
    const limit = this.scratch();
    const { score: sums, lastForm: marked } = this;
    const touched: number[] = [];
    for (const [fieldId, boost] of this.fields) {
      const freqs = data.get(fieldId);
      if (!freqs) continue;
      let matching = freqs.size;
      const average = averages[fieldId];
      if (freqs instanceof Postings) {
        // the same sums as below, over the typed arrays (no pair per entry)
        const { ids: postingIds, freqs: counts, length: slots } = freqs;
        for (let i = 0; i < slots; i++) {
          if (counts[i] === 0) continue;
          const doc = postingIds[i];
          if (!ids.has(doc)) {
            matching -= 1;
            continue;
          }
          const idf = Math.log(1 + (total - matching + 0.5) / (matching + 0.5));
          const freq = freqs.freqAt(i);
          const length = (lengths.get(doc) as number[])[fieldId];
          const raw = idf * (D + (freq * (K + 1)) / (freq + K * (1 - B + (B * length) / average)));
          if (marked[doc] === -1) {
            marked[doc] = 0;
            touched.push(doc);
          }
          sums[doc] += boost * raw;
        }
        continue;
      }
      for (const [doc, freq] of freqs) {
        // a discarded product (before MiniSearch's vacuum): left out, and not counted, as MiniSearch does
        if (!ids.has(doc)) {
          matching -= 1;
          continue;
        }
        const length = (lengths.get(doc) as number[])[fieldId];
        const idf = Math.log(1 + (total - matching + 0.5) / (matching + 0.5));
        const raw = idf * (D + (freq * (K + 1)) / (freq + K * (1 - B + (B * length) / average)));
        if (marked[doc] === -1) {
          marked[doc] = 0;
          touched.push(doc);
        }
        sums[doc] += boost * raw;
      }
    }
    const docs = ascending(touched, marked, limit);
    const values = new Float64Array(docs.length);
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i];
      values[i] = sums[doc];
      sums[doc] = 0;
      marked[doc] = -1;
    }
    const vector = docs.length ? { docs, values } : EMPTY;
    this.keep(term, vector);
    return vector;
  }

  private keep(term: string, vector: Vector): void {
    this.vectors.set(term, vector);
    this.vectorEntries += vector.docs.length + 1;
    for (const [oldest, held] of this.vectors) {
      if (this.vectorEntries <= this.maxEntries) break;
      this.vectors.delete(oldest);
      this.vectorEntries -= held.docs.length + 1;
    }
  }

  /** The index terms a spelling stands for, with their weights (MiniSearch's `executeQuerySpec`). */
  private expand(form: WordForm): [term: string, data: FieldTermData, weight: number][] {
    const tree = this.internals._index;
    const out: [string, FieldTermData, number][] = [];
    const exact = tree.get(form.term);
    if (exact) out.push([form.term, exact, 1]);
    const fuzzy = form.fuzzy ? tree.fuzzyGet(form.term, form.fuzzy) : undefined;
    if (form.prefix)
      for (const [term, data] of tree.atPrefix(form.term)) {
        const distance = term.length - form.term.length;
        if (!distance) continue;
        fuzzy?.delete(term);
        out.push([term, data, (PREFIX_WEIGHT * term.length) / (term.length + 0.3 * distance)]);
      }
    if (fuzzy)
      for (const [term, [data, distance]] of fuzzy) {
        if (!distance) continue;
        out.push([term, data, (FUZZY_WEIGHT * term.length) / (term.length + distance)]);
      }
    return out;
  }

  /**
   * The products matching any of a word's spellings, scored as `MiniSearch.search` scores a query of
   * them combined with OR: the sum of the weighted terms' scores, times how many spellings matched.
   */
  word(forms: readonly WordForm[]): WordScores {
    // the terms' vectors first: they use the same scratch space
    const expanded = forms.map((form) =>
      this.expand(form).map(([term, data, weight]) => [term, this.vector(term, data), weight] as const),
    );
    const single = this.singleTerm(forms, expanded);
    if (single) return single;
    const limit = this.scratch();
    const { score, quality, lastForm } = this;
    const touched: number[] = [];
    const terms = new Set<string>();
    forms.forEach((form, f) => {
      for (const [term, vector, weight] of expanded[f]) {
        if (!vector.docs.length) continue;
        terms.add(term);
        const w = weight * form.boost;
        const { docs, values } = vector;
        for (let i = 0; i < docs.length; i++) {
          const doc = docs[i];
          if (lastForm[doc] !== f) {
            if (lastForm[doc] === -1) touched.push(doc);
            lastForm[doc] = f;
            quality[doc]++;
          }
          score[doc] += w * values[i];
        }
      }
    });
    const docs = ascending(touched, lastForm, limit);
    const values = new Float64Array(docs.length);
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i];
      values[i] = score[doc] * quality[doc];
      score[doc] = 0;
      quality[doc] = 0;
      lastForm[doc] = -1;
    }
    return { docs, values, terms: [...terms] };
  }

  /**
   * A word whose spellings all stand for one and the same index term (most words, and most typos): its
   * scores are that term's, times the weights of the spellings that found it, summed in the same order,
   * times their number (every product of the term matched each of them), with no pass over the ids.
   */
  private singleTerm(
    forms: readonly WordForm[],
    expanded: (readonly (readonly [string, Vector, number])[])[],
  ): WordScores | undefined {
    let term: string | undefined;
    let vector: Vector | undefined;
    const weights: number[] = [];
    for (let f = 0; f < forms.length; f++)
      for (const [found, kept, weight] of expanded[f]) {
        if (!kept.docs.length) continue;
        if (term === undefined) [term, vector] = [found, kept];
        else if (found !== term) return undefined;
        weights.push(weight * forms[f].boost);
      }
    if (term === undefined || vector === undefined) return undefined;
    const { docs, values: termValues } = vector;
    const spellings = weights.length;
    // one spelling of weight 1 (a word found as it is): (0 + 1 × v) × 1 is v, the term's own values
    if (spellings === 1 && weights[0] === 1) return { docs, values: termValues, terms: [term] };
    const values = new Float64Array(docs.length);
    for (let i = 0; i < docs.length; i++) {
      let sum = 0;
      for (let w = 0; w < spellings; w++) sum += weights[w] * termValues[i];
      values[i] = sum * spellings;
    }
    return { docs, values, terms: [term] };
  }

  /** Scratch arrays for every numeric id of the index (zero, and -1 for the marks); answers the id limit. */
  private scratch(): number {
    const limit = this.internals._nextId;
    if (this.score.length < limit) {
      const size = Math.max(limit, Math.ceil(this.score.length * 1.5));
      this.score = new Float64Array(size);
      this.quality = new Uint8Array(size);
      this.lastForm = new Int16Array(size).fill(-1);
    }
    return limit;
  }

  /** The index terms of `word` that match the product `doc` (for highlighting). */
  termsOf(word: WordScores, doc: number): string[] {
    const out: string[] = [];
    for (const term of word.terms) {
      const vector = this.vectors.get(term) ?? this.reread(term);
      if (indexOf(vector.docs, doc) >= 0) out.push(term);
    }
    return out;
  }

  private reread(term: string): Vector {
    const data = this.internals._index.get(term);
    return data ? this.vector(term, data) : EMPTY;
  }
}
