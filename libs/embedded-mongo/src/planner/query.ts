import type { Document } from 'bson';
import type { SortField, StringCompare } from '../bson-order';
import type { Plan } from './plan';

/** What a find or count asks, and what its run reports. */

export interface QueryOptions {
  filter?: Document;
  sort?: SortField[];
  skip?: number;
  limit?: number;
  /** A non-simple collation: strings compare through it, and no index serves the query. */
  strings?: StringCompare;
  /** Index name or key pattern to use (`hint`). */
  hint?: unknown;
  /** The command's `let` variables, for `$$name` in `$expr`. */
  variables?: Document;
  /** The command's collation (`simple` or an ICU locale with a strength). */
  collation?: unknown;
}

export interface ExecStats {
  plan: Plan;
  keysExamined: number;
  docsExamined: number;
  nReturned: number;
}

/** This transaction's uncommitted writes on the collection (_id key -> document, null = deleted). */
export type Overlay = Map<string, Document | null>;

export interface FindResult {
  docs: Document[];
  stats: ExecStats;
}
