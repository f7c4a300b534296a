import { Long, type Document } from 'bson';
import { cursorNotFound } from './errors';

const DEFAULT_BATCH = 101;

interface CursorState {
  ns: string;
  docs: Document[];
}

/** Open cursors: the documents a query has not yet returned, by cursor id. */
export class Cursors {
  private readonly open = new Map<string, CursorState>();
  /** The id the next cursor gets (ids only grow). */
  nextId = 1;

  /** A cursor's first batch; the rest stays open under a new id unless it is a single batch. */
  reply(ns: string, docs: Document[], batchSize: number | undefined, singleBatch: boolean): Document {
    const size = batchSize && batchSize > 0 ? batchSize : singleBatch ? docs.length : DEFAULT_BATCH;
    const firstBatch = docs.slice(0, size);
    let id = Long.ZERO;
    if (!singleBatch && docs.length > size) {
      id = Long.fromNumber(this.nextId++);
      this.open.set(id.toString(), { ns, docs: docs.slice(size) });
    }
    return { cursor: { firstBatch, id, ns } };
  }

  /** Forgets a cursor; answers whether it was open. */
  delete(id: string): boolean {
    return this.open.delete(id);
  }

  getMore(cmd: Document): Document {
    const key = String(cmd.getMore);
    const state = this.open.get(key);
    if (!state) throw cursorNotFound(key);
    const size = cmd.batchSize && cmd.batchSize > 0 ? Number(cmd.batchSize) : state.docs.length;
    const nextBatch = state.docs.splice(0, size);
    let id = Long.fromString(key);
    if (state.docs.length === 0) {
      this.open.delete(key);
      id = Long.ZERO;
    }
    return { cursor: { nextBatch, id, ns: state.ns } };
  }

  killCursors(cmd: Document): Document {
    const killed: unknown[] = [];
    const notFound: unknown[] = [];
    for (const id of (cmd.cursors ?? []) as unknown[]) {
      (this.open.delete(String(id)) ? killed : notFound).push(id);
    }
    return { cursorsKilled: killed, cursorsNotFound: notFound, cursorsAlive: [], cursorsUnknown: [] };
  }
}
