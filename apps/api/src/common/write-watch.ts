import type { Schema } from 'mongoose';

/** Every write a model can make (query and document middleware names). */
const QUERY_WRITES = [
  'updateOne',
  'updateMany',
  'findOneAndUpdate',
  'findOneAndReplace',
  'findOneAndDelete',
  'replaceOne',
  'deleteOne',
  'deleteMany',
] as const;

/**
 * A counter that moves on every write to one collection made through its Mongoose model, on this
 * instance: before the write (a read in flight then keeps nothing it read) and after it (nothing read
 * meanwhile survives). What a cache remembers about that collection is valid only while the counter
 * stands where it stood when the read began. Writes through `Model.collection` (the driver's own
 * methods) bypass Mongoose's middleware: a watched collection's writes must go through the model.
 */
export class WriteWatch {
  generation = 0;

  readonly note = (): void => {
    this.generation++;
  };

  /** Hooks this watch on every write of `schema` (call once, where the schema is made). */
  watch(schema: Schema): void {
    const hook = (next?: unknown) => {
      this.note();
      if (typeof next === 'function') (next as () => void)();
    };
    schema.pre([...QUERY_WRITES], hook);
    schema.post([...QUERY_WRITES], hook);
    schema.pre('save', hook);
    schema.post('save', hook);
    schema.pre('deleteOne', { document: true, query: false }, hook);
    schema.pre('insertMany', hook);
    schema.pre('bulkWrite', hook);
    schema.post('bulkWrite', hook);
  }
}
