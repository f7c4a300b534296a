import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import MiniSearch from 'minisearch';
import { Types, type Model } from 'mongoose';
import { Changes } from '../../common/changes';
import { APP_CONFIG, type AppConfig } from '../../config';
import { CATALOGUE_READS, READ_EVERYTHING, type CatalogueReads } from './catalogue-reads';
import { Product } from './schemas/product.schema';
import { SearchCards } from './search-cards';
import { compactPostings } from './search-postings';
import type { Matches } from './search-results';
import { Scorer, type WordScores } from './search-scorer';
import {
  FIELD_BOOSTS,
  INDEXED_FIELDS,
  SEARCH_FIELDS,
  indexWords,
  queryWords,
  toSearchEntry,
  wordForms,
  type IndexSource,
  type ProductFacts,
  type SearchDocument,
} from './search-query';

/** The products matching a search (search-results.ts), and the index's terms that matched a product (for highlighting). */
export interface SearchResult extends Matches {
  terms(id: string): string[];
}

/**
 * Products kept over all the words whose scores are kept (a word matching every product counts them
 * all): at most 12 bytes each, 60 MB. At 100,000 products 2,000,000 held ~70 words and a distinct query
 * cost a third more CPU (decision 0103); at 10,000 every word fits either way.
 */
const WORD_CACHE_ENTRIES = 5_000_000;
/** Bytes of listing cards kept beside the index at most (search-cards.ts). */
const CARD_BYTES = 48 * 1024 * 1024;

/** Products read and added per step of a build (the event loop answers other requests in between). */
const BUILD_BATCH = 2000;
/**
 * A sync reads the products changed since the previous sync started, less this much: a write that
 * stamped `updatedAt` a moment before it committed (or on an instance whose clock is a little behind)
 * is read again by the next sync, which the write's own change (or the version's move) calls for.
 */
const SYNC_OVERLAP_MS = 10_000;
const OBJECT_ID = /^[0-9a-f]{24}$/i;

/**
 * The search index of this API instance (MiniSearch, in memory; docs/decisions/0084-search-index.md):
 * every active product's texts by field, and the facts the listing filters and sorts on. Built from
 * the database when the application starts (searches wait for it; readiness does not), then kept
 * current by the changes the API already publishes:
 * - a change of products, stock, reviews or orders on this instance (common/changes) marks it stale,
 *   and the next search first reads what changed (`updatedAt` since the previous read, one indexed query);
 * - another instance's changes: when the shared version of public data moves (the cache layer says so
 *   through `CatalogueReads.onChangedElsewhere`, within HOT_CACHE_TTL_MS), the same;
 * - writes made outside any instance (a script): read at least every HOT_CACHE_MAX_AGE_MS.
 * A product withdrawn (active: false) leaves the index; the listing reads the page's products
 * from the database (active ones only), so a product gone for good never shows.
 */
@Injectable()
export class SearchIndex implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('SearchIndex');
  private readonly facts = new Map<string, ProductFacts>();
  private index = SearchIndex.emptyIndex();
  private scorer = new Scorer(this.index, FIELD_BOOSTS);
  /** By MiniSearch's numeric id: each product's facts and its tie-break factor (`tieBreak`). */
  private byShortId: (ProductFacts | undefined)[] = [];
  private tieBreaks = new Float64Array(0);
  /** By numeric id, the product's id as two numbers (search-results.ts `Matches.idKeys`). */
  private idKeys = new Float64Array(0);
  /** The matches of the last `searchNow`, lent to its caller. */
  private matched = new Int32Array(0);
  private matchScores = new Float64Array(0);
  private built = false;
  private readonly words = new Map<string, WordScores>();
  private wordEntries = 0;
  private building?: Promise<void>;
  private syncing?: Promise<void>;
  private stale = false;
  /** Products this instance changed (read again by id at the next sync, whatever their `updatedAt`). */
  private readonly pendingIds = new Set<string>();
  private rebuild = false;
  /** The periodic check: a count of active products unlike the index's (an import, a restore) rebuilds it. */
  private reconcile = false;
  /** Products changed from this time on (by `updatedAt`) are read at the next sync. */
  private since = new Date(0);
  private timer?: NodeJS.Timeout;
  private readonly unlisten: () => void;
  /** How long the last full build took (ms) and how many products it indexed. */
  lastBuild = { ms: 0, products: 0 };
  /** The listing's cards of the products, kept current with the index (off with the hot cache off). */
  readonly cards: SearchCards;

  constructor(
    @InjectModel(Product.name) private readonly products: Model<Product>,
    changes: Changes,
    @Optional()
    @Inject(APP_CONFIG)
    private readonly config?: Partial<Pick<AppConfig, 'hotCacheMaxAgeMs' | 'hotCacheTtlMs'>>,
    @Optional() @Inject(CATALOGUE_READS) reads: CatalogueReads = READ_EVERYTHING,
  ) {
    const ttl = config?.hotCacheTtlMs ?? 0;
    this.cards = new SearchCards(ttl > 0, Math.max(ttl, config?.hotCacheMaxAgeMs ?? 60000), CARD_BYTES);
    this.unlisten = changes.listen({
      changed: (change) => {
        if (change.kind === 'settings' || change.kind === 'account') return;
        // products written without a stamp of now (the seed, a backfill): read them all again
        if (change.kind === 'product' && !change.ids) this.rebuild = true;
        else if (change.kind !== 'order')
          for (const id of change.ids ?? []) if (OBJECT_ID.test(id)) this.pendingIds.add(id);
        this.stale = true;
      },
    });
    reads.onChangedElsewhere?.(() => {
      this.stale = true;
    });
  }

  private static emptyIndex(): MiniSearch<SearchDocument> {
    return new MiniSearch<SearchDocument>({
      idField: 'id',
      fields: [...SEARCH_FIELDS],
      storeFields: [],
      tokenize: indexWords,
      processTerm: (term) => term,
      searchOptions: {
        boost: { ...FIELD_BOOSTS },
        // a query's words are already the index's terms (search-query.ts)
        tokenize: (text) => [text],
      },
    });
  }

  onApplicationBootstrap(): void {
    // not awaited: the API is ready meanwhile, and the first searches wait for the build
    this.current().catch((error: unknown) =>
      this.logger.warn(`Search index not built yet (built at the next search): ${String(error)}`),
    );
    const every = Math.max(1000, this.config?.hotCacheMaxAgeMs ?? 60000);
    this.timer = setInterval(() => {
      this.reconcile = true;
      this.stale = true;
    }, every);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    this.unlisten();
    if (this.timer) clearInterval(this.timer);
  }

  /** Products in the index. */
  get size(): number {
    return this.facts.size;
  }

  /** Waits until the index holds every change heard of so far (builds it first if need be). */
  async current(): Promise<void> {
    if (!this.built) {
      this.building ??= this.build().finally(() => (this.building = undefined));
      await this.building;
    }
    while (this.stale || this.syncing) {
      if (!this.syncing) {
        this.stale = false;
        this.syncing = this.sync()
          .catch((error: unknown) => {
            this.stale = true;
            throw error;
          })
          .finally(() => (this.syncing = undefined));
      }
      await this.syncing;
    }
  }

  /** Reads every active product into a new index, a batch at a time, then puts it in place. */
  private async build(): Promise<void> {
    const started = Date.now();
    const heapBefore = process.memoryUsage().heapUsed;
    this.stale = false;
    const index = SearchIndex.emptyIndex();
    const facts = new Map<string, ProductFacts>();
    const cursor = this.products
      .find({ active: true }, INDEXED_FIELDS)
      .lean<IndexSource[]>()
      .batchSize(BUILD_BATCH)
      .cursor();
    let batch: SearchDocument[] = [];
    for await (const doc of cursor) {
      const entry = toSearchEntry(doc as IndexSource);
      if (facts.has(entry.facts.id)) continue;
      facts.set(entry.facts.id, entry.facts);
      batch.push(entry.document);
      if (batch.length >= BUILD_BATCH) {
        index.addAll(batch);
        batch = [];
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    index.addAll(batch);
    // the postings over typed arrays: a fifth of the memory, the same answers (decision 0103)
    compactPostings(index);
    this.index = index;
    this.scorer = new Scorer(index, FIELD_BOOSTS);
    this.facts.clear();
    this.cards.clear();
    this.byShortId = [];
    for (const [id, fact] of facts) {
      this.facts.set(id, fact);
      this.placed(fact);
    }
    this.changedIndex();
    this.since = new Date(started - SYNC_OVERLAP_MS);
    this.built = true;
    this.lastBuild = { ms: Date.now() - started, products: facts.size };
    // the heap's growth over the build: the new index and facts (the old ones are still held), roughly
    const heapMb = Math.round((process.memoryUsage().heapUsed - heapBefore) / 2 ** 20);
    this.logger.log(`Search index: ${facts.size} products in ${this.lastBuild.ms} ms (heap +${heapMb} MB)`);
  }

  /** Reads the products changed since the last read (withdrawn ones leave the index). */
  private async sync(): Promise<void> {
    if (this.reconcile) {
      this.reconcile = false;
      if ((await this.products.countDocuments({ active: true }).exec()) !== this.facts.size)
        this.rebuild = true;
    }
    if (this.rebuild) {
      this.rebuild = false;
      this.pendingIds.clear();
      return this.build();
    }
    const started = Date.now();
    const ids = [...this.pendingIds].map((id) => new Types.ObjectId(id));
    this.pendingIds.clear();
    const since = { updatedAt: { $gte: this.since } };
    const changed = await this.products
      .find(ids.length ? { $or: [since, { _id: { $in: ids } }] } : since, INDEXED_FIELDS)
      .lean<IndexSource[]>()
      .exec();
    for (const doc of changed) this.put(doc);
    // a product this instance changed that is not there any more (deleted for good): out of the index
    const read = new Set(changed.map((doc) => String(doc._id)));
    for (const id of ids) if (!read.has(id.toHexString())) this.forget(id.toHexString());
    this.since = new Date(started - SYNC_OVERLAP_MS);
  }

  /** Puts a product read from the database in the index, or takes it out when it is not on sale. */
  private put(doc: IndexSource): void {
    const { document, facts } = toSearchEntry(doc);
    if (doc.active === false) return this.forget(facts.id);
    const before = this.scorer.shortId(facts.id);
    if (before !== undefined) this.byShortId[before] = undefined;
    this.cards.drop(facts.id);
    if (this.index.has(facts.id)) this.index.replace(document);
    else this.index.add(document);
    this.facts.set(facts.id, facts);
    this.placed(facts);
    this.changedIndex();
  }

  /** Takes a product out of the index (withdrawn, or found gone for good). */
  forget(id: string): void {
    this.cards.drop(id);
    const shortId = this.scorer.shortId(id);
    if (shortId !== undefined) this.byShortId[shortId] = undefined;
    if (this.index.has(id)) this.index.discard(id);
    if (this.facts.delete(id)) this.changedIndex();
  }

  /** A product's facts and tie-break by its numeric id in the index (just added). */
  private placed(facts: ProductFacts): void {
    const shortId = this.scorer.shortId(facts.id);
    if (shortId === undefined) return;
    this.byShortId[shortId] = facts;
    if (this.tieBreaks.length <= shortId) {
      const grown = new Float64Array(Math.max(shortId + 1, Math.ceil(this.tieBreaks.length * 1.5), 1024));
      grown.set(this.tieBreaks);
      this.tieBreaks = grown;
      const keys = new Float64Array(grown.length * 2);
      keys.set(this.idKeys);
      this.idKeys = keys;
    }
    this.tieBreaks[shortId] = this.tieBreak(facts);
    // lower-case hex only: ordered as the strings are (byId in search-results.ts)
    const hex = /^[0-9a-f]{24}$/.test(facts.id) ? facts.id : undefined;
    this.idKeys[shortId * 2] = hex ? parseInt(hex.slice(0, 12), 16) : NaN;
    this.idKeys[shortId * 2 + 1] = hex ? parseInt(hex.slice(12), 16) : NaN;
  }

  /**
   * The active products matching a shopper's text with their relevance (where the words match, then
   * rating and reviews), or null when the text has no word. Waits for the index to be current. The
   * result is its own (`searchNow` lends its arrays).
   */
  async search(text: string): Promise<SearchResult | null> {
    if (!queryWords(text).length) return null;
    await this.current();
    const found = this.searchNow(text);
    return found && { ...found, docs: found.docs.slice(), scores: found.scores.slice() };
  }

  /** Waits until the index is current when the text has words to search for (`searchNow` then answers). */
  async currentFor(text: string): Promise<void> {
    if (queryWords(text).length) await this.current();
  }

  /**
   * `search` over the index as it is now (call `current()` first): the result's arrays are lent, good
   * until the next call, so it is read before anything is awaited (no array of matches per query).
   */
  searchNow(text: string): SearchResult | null {
    const words = queryWords(text);
    if (!words.length) return null;
    const perWord = words.map((word, i) => this.wordScores(word, i === words.length - 1));
    const terms = (id: string) => {
      const shortId = this.scorer.shortId(id);
      return shortId === undefined ? [] : perWord.flatMap((word) => this.scorer.termsOf(word, shortId));
    };
    // every word must match: the products of the word with the fewest, kept if the others have them too
    const [fewest, ...others] = [...perWord].sort((a, b) => a.docs.length - b.docs.length);
    const at = new Int32Array(others.length);
    const { docs, values } = fewest;
    const facts = this.byShortId;
    const tieBreaks = this.tieBreaks;
    if (this.matched.length < docs.length) {
      const size = Math.max(docs.length, Math.ceil(this.matched.length * 1.5));
      this.matched = new Int32Array(size);
      this.matchScores = new Float64Array(size);
    }
    const { matched, matchScores: scores } = this;
    let n = 0;
    next: for (let i = 0; i < docs.length; i++) {
      const doc = docs[i];
      let score = values[i];
      for (let w = 0; w < others.length; w++) {
        // ids ascend in every word's scores: each other word is walked once, forward
        const other = others[w].docs;
        const j = gallop(other, at[w], doc);
        at[w] = j;
        if (j === other.length) break next; // this word has no product further on: nothing more matches
        if (other[j] !== doc) continue next;
        score += others[w].values[j];
      }
      if (facts[doc] === undefined) continue;
      matched[n] = doc;
      scores[n] = score * tieBreaks[doc];
      n++;
    }
    return { docs: matched.subarray(0, n), scores: scores.subarray(0, n), facts, terms, idKeys: this.idKeys };
  }

  /**
   * One word of a query scored over the index (search-scorer.ts): kept (a shopper's words repeat far
   * more than whole queries) until the index changes, at most WORD_CACHE_ENTRIES products over all the
   * words kept, the least recently used forgotten first.
   */
  private wordScores(word: string, last: boolean): WordScores {
    const key = `${last ? '+' : '='}${word}`;
    const kept = this.words.get(key);
    if (kept) {
      this.words.delete(key);
      this.words.set(key, kept);
      return kept;
    }
    const scores = this.scorer.word(wordForms(word, last));
    this.wordEntries += scores.docs.length + 1;
    this.words.set(key, scores);
    for (const [oldest, held] of this.words) {
      if (this.wordEntries <= WORD_CACHE_ENTRIES) break;
      this.words.delete(oldest);
      this.wordEntries -= held.docs.length + 1;
    }
    return scores;
  }

  /** The index changed: what was kept of words is forgotten. */
  private changedIndex(): void {
    this.words.clear();
    this.wordEntries = 0;
    this.scorer.clear();
  }

  /** Products as good a match as each other are told apart by rating and reviews (at most 2%). */
  private tieBreak(facts: ProductFacts): number {
    return 1 + facts.rating / 500 + Math.min(1, Math.log10(1 + facts.reviewCount) / 3) / 100;
  }
}

/**
 * The first place from `from` on whose id is not below `doc` (ids ascend): steps of 1, 2, 4 ... then
 * a binary search in the last step, so that walking a long list for a short one's ids skips ahead cheaply.
 */
function gallop(docs: Int32Array, from: number, doc: number): number {
  const n = docs.length;
  if (from >= n || docs[from] >= doc) return from;
  let low = from;
  let step = 1;
  while (low + step < n && docs[low + step] < doc) {
    low += step;
    step *= 2;
  }
  let high = Math.min(low + step, n);
  low += 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (docs[middle] < doc) low = middle + 1;
    else high = middle;
  }
  return low;
}
