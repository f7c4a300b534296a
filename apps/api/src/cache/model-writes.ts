import mongoose, { type Schema } from 'mongoose';

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

/** The collections whose model writes some cache hears beside the published changes (invalidation.ts). */
const WATCHED = new Set(['products', 'settings']);
const listeners = new Map<string, Set<() => void>>();

/**
 * Writes through the Mongoose model of a watched collection, made by any code of this process (a
 * domain service, the seed, a test, a script run in-process): heard before the write (a read in flight
 * then keeps nothing it read) and after it. Registered as a global Mongoose plugin, so it is on every
 * model compiled after this file is loaded (the cache module is loaded with the app, before any model
 * is compiled). Writes through `Model.collection` (the driver's own methods) are not heard: they count
 * as another instance's, shown within HOT_CACHE_TTL_MS.
 */
mongoose.plugin((schema: Schema) => {
  const collection = schema.get('collection');
  if (!collection || !WATCHED.has(collection)) return;
  const hook = (next?: unknown) => {
    for (const listener of listeners.get(collection) ?? []) listener();
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
});

/** Calls `listener` at every write through the model of `collection` ('products' or 'settings'); answers its removal. */
export function onModelWrite(collection: 'products' | 'settings', listener: () => void): () => void {
  let set = listeners.get(collection);
  if (!set) listeners.set(collection, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}
