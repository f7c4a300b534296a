import type { Model, Schema, Types } from 'mongoose';

/**
 * Documents as a Mongoose model stores them, for writes through the model's collection.
 *
 * Some writes on the hot path (placing an order, the outbox's messages, a cart line) go to
 * `model.collection` because creating a Mongoose document for them costs a noticeable share of the
 * request's CPU. What they write must still be exactly what `Model.create(fields)` would have stored:
 * the schema's defaults, the `_id` of the document and of each subdocument that has one, the
 * timestamps (`updatedAt` equal to `createdAt` on insert), the version key, no undefined field, no
 * field the schema does not know (strict schemas), no empty plain object (Mongoose's `minimize`).
 * The plan of a schema (which fields, which defaults, which subdocuments) is derived from the schema
 * once and kept per schema, so a build walks a short list and calls nothing of Mongoose but the
 * defaults' functions.
 *
 * What is not done: casting and validation. The values given must already be of their stored types
 * (ObjectIds, Dates, numbers, trimmed strings) and valid; the callers' inputs were checked by their
 * DTOs and domain rules. test/model-document.spec.ts compares the result with
 * `new Model(fields).toObject()` for every model built here; add a case when you use it for another.
 */

/** What a caller gives for a document or subdocument: any of its fields, nested ones as inputs too. */
export type DocumentInput<T> = T extends Types.ObjectId | Date | Buffer | RegExp
  ? T
  : T extends readonly (infer E)[]
    ? DocumentInput<E>[]
    : T extends object
      ? { [K in keyof T]?: DocumentInput<T[K]> } & { _id?: Types.ObjectId }
      : T;

/** The document as stored: the model's fields plus its `_id` (and `__v` where the schema versions). */
export type StoredDocument<T> = T & { _id: Types.ObjectId; __v?: number };

type Plain = Record<string, unknown>;

interface Field {
  key: string;
  /** leaf: a value as given; subdocument: one nested schema; array: values or subdocuments; nested: a plain object path. */
  kind: 'leaf' | 'subdocument' | 'array' | 'nested';
  /** The element or nested schema's plan (subdocuments, document arrays, nested paths). */
  plan?: Plan;
  /** The default when the field is not given (undefined: none). */
  defaultValue?: (now: Date) => unknown;
}

interface Plan {
  fields: Field[];
  known: Set<string>;
  strict: boolean;
  createdAt?: string;
  updatedAt?: string;
  versionKey?: string;
}

/** The internals of a schema type this module reads (public in Mongoose's documentation, not in its types). */
interface SchemaTypeInternals {
  instance: string;
  defaultValue?: unknown;
  schema?: Schema;
  $isSingleNested?: boolean;
  $isMongooseDocumentArray?: boolean;
  $isMongooseArray?: boolean;
  setters?: unknown[];
  getDefault(scope: unknown): unknown;
}

const plans = new WeakMap<Schema, Plan>();

/**
 * The document `model.create(fields)` would store, built without Mongoose: defaults, `_id`s,
 * timestamps at `now`, `__v: 0`. Insert it with `model.collection.insertOne(doc, { session })`.
 */
export function modelDocument<T>(
  model: Model<T>,
  fields: DocumentInput<T>,
  now: Date = new Date(),
): StoredDocument<T> {
  return build(planOf(model.schema, true), fields as Plain, now) as StoredDocument<T>;
}

/**
 * One element of a document array path (`items` of a cart) as Mongoose makes it on `$push`: the
 * element schema's defaults and its `_id` when it has one.
 */
export function modelSubdocument<E = Plain>(
  model: { schema: Schema; modelName: string },
  path: string,
  fields: DocumentInput<E>,
  now: Date = new Date(),
): E {
  const type = model.schema.path(path) as unknown as SchemaTypeInternals | undefined;
  if (!type?.schema) throw new Error(`${model.modelName}.${path} is not a path of subdocuments`);
  return build(planOf(type.schema, false), fields as Plain, now) as E;
}

function build(plan: Plan, given: Plain, now: Date): Plain {
  const out: Plain = {};
  for (const field of plan.fields) {
    const value = given[field.key];
    const built = value === undefined ? field.defaultValue?.(now) : valueOf(field, value, now);
    if (built !== undefined) out[field.key] = built;
  }
  if (!plan.strict) {
    for (const key of Object.keys(given)) {
      if (!plan.known.has(key) && given[key] !== undefined) out[key] = plainCopy(given[key]);
    }
  }
  if (plan.createdAt) {
    // Mongoose keeps a given creation time, else takes now; a new document's updatedAt is its createdAt
    out[plan.createdAt] = given[plan.createdAt] || now;
    if (plan.updatedAt) out[plan.updatedAt] = out[plan.createdAt];
  } else if (plan.updatedAt) {
    out[plan.updatedAt] = now;
  }
  if (plan.versionKey) out[plan.versionKey] = given[plan.versionKey] ?? 0;
  return out;
}

function valueOf(field: Field, value: unknown, now: Date): unknown {
  if (value === null) return null;
  switch (field.kind) {
    case 'subdocument':
      return build(field.plan!, value as Plain, now);
    case 'nested': {
      const nested = build(field.plan!, value as Plain, now);
      return Object.keys(nested).length ? nested : undefined;
    }
    case 'array':
      return field.plan
        ? (value as Plain[]).map((element) => (element === null ? null : build(field.plan!, element, now)))
        : (value as unknown[]).map(plainCopy);
    default:
      return plainCopy(value);
  }
}

/** A given value as stored: plain objects (Mixed) copied without undefined fields or empty objects. */
function plainCopy(value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  const out: Plain = {};
  for (const [key, inner] of Object.entries(value)) {
    const copy = plainCopy(inner);
    if (copy !== undefined) out[key] = copy;
  }
  return Object.keys(out).length ? out : undefined;
}

const isObjectId = (value: unknown): boolean =>
  (value as { _bsontype?: string } | null)?._bsontype === 'ObjectId';

function isPlainObject(value: unknown): value is Plain {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

// ---- the plan, derived once per schema ----

function planOf(schema: Schema, root: boolean): Plan {
  let plan = plans.get(schema);
  if (!plan) {
    plan = derivePlan(schema, root);
    plans.set(schema, plan);
  }
  return plan;
}

function derivePlan(schema: Schema, root: boolean): Plan {
  const timestamps = (
    schema as unknown as { $timestamps?: { createdAt?: string | null; updatedAt?: string | null } }
  ).$timestamps;
  const versionKey = root ? (schema.get('versionKey') as string | false | undefined) : undefined;
  const reserved = new Set([timestamps?.createdAt, timestamps?.updatedAt, versionKey || undefined]);
  const plan: Plan = {
    fields: [],
    known: new Set(),
    strict: schema.get('strict') !== false,
    ...(timestamps?.createdAt ? { createdAt: timestamps.createdAt } : {}),
    ...(timestamps?.updatedAt ? { updatedAt: timestamps.updatedAt } : {}),
    ...(versionKey ? { versionKey } : {}),
  };
  // `_id` first, as MongoDB stores it; the other paths in the schema's order
  const paths = Object.keys(schema.paths).sort((a, b) => Number(b === '_id') - Number(a === '_id'));
  for (const path of paths) {
    if (reserved.has(path)) {
      plan.known.add(path);
      continue;
    }
    addPath(plan, path.split('.'), schema.paths[path] as unknown as SchemaTypeInternals);
  }
  return plan;
}

/** Places a (possibly dotted) schema path in the plan: `a.b` becomes the field `b` of the nested field `a`. */
function addPath(plan: Plan, segments: string[], type: SchemaTypeInternals): void {
  const [key, ...rest] = segments;
  plan.known.add(key);
  if (rest.length) {
    let nested = plan.fields.find((f) => f.key === key);
    if (!nested) {
      nested = { key, kind: 'nested', plan: { fields: [], known: new Set(), strict: plan.strict } };
      plan.fields.push(nested);
    }
    addPath(nested.plan!, rest, type);
    // a nested object is there when any of its fields has a default
    const inner = nested.plan!;
    nested.defaultValue = inner.fields.some((f) => f.defaultValue)
      ? (now) => {
          const built = build(inner, {}, now);
          return Object.keys(built).length ? built : undefined;
        }
      : undefined;
    return;
  }
  plan.fields.push(fieldOf(key, type));
}

function fieldOf(key: string, type: SchemaTypeInternals): Field {
  const raw = type.defaultValue;
  if (type.$isSingleNested && type.schema) {
    const plan = planOf(type.schema, false);
    return {
      key,
      kind: 'subdocument',
      plan,
      defaultValue:
        raw == null
          ? undefined
          : (now) => {
              const value = typeof raw === 'function' ? (raw as () => unknown).call(undefined) : raw;
              return value == null ? value : build(plan, value as Plain, now);
            },
    };
  }
  if (type.$isMongooseDocumentArray || type.$isMongooseArray || type.instance === 'Array') {
    const plan = type.$isMongooseDocumentArray && type.schema ? planOf(type.schema, false) : undefined;
    const field: Field = { key, kind: 'array', plan };
    // Mongoose gives every array path a default ([] unless the schema says otherwise), a function
    // that answers the raw array before it is cast
    if (typeof raw === 'function') {
      field.defaultValue = (now) => {
        const value = (raw as () => unknown).call(undefined);
        return value == null ? value : valueOf(field, value, now);
      };
    }
    return field;
  }
  if (raw == null) return { key, kind: 'leaf' };
  if (typeof raw !== 'function') {
    const constant = type.getDefault(undefined);
    if (constant === null || typeof constant !== 'object')
      return { key, kind: 'leaf', defaultValue: () => constant };
  }
  const viaMongoose = () => plainCopy(type.getDefault(undefined));
  // An id or a time made by the default's function (`_id`, `() => new Date()`) is stored as it is
  // when the path has no setter: no cast, no copy (half the cost of an order's document otherwise).
  if (
    typeof raw === 'function' &&
    !type.setters?.length &&
    (type.instance === 'ObjectId' || type.instance === 'Date')
  ) {
    const make = raw as (this: undefined, scope: undefined) => unknown;
    const stored = type.instance === 'ObjectId' ? isObjectId : (v: unknown) => v instanceof Date;
    return {
      key,
      kind: 'leaf',
      defaultValue: () => {
        const value = make.call(undefined, undefined);
        return stored(value) ? value : viaMongoose();
      },
    };
  }
  return { key, kind: 'leaf', defaultValue: viaMongoose };
}
