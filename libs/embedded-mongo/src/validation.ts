import type { Document } from 'bson';
import { Query } from './mingo';
import { typeRank, RANK } from './bson-order';
import { MongoCommandError } from './errors';

/**
 * Collection validators as mongod enforces them: a query document (any operators mingo knows) and/or
 * `$jsonSchema` (the keywords MongoDB supports: bsonType/type, required, properties,
 * additionalProperties, minimum/maximum (+exclusive), minLength/maxLength, pattern, enum, items,
 * minItems/maxItems). A failure answers code 121 DocumentValidationFailure with `errInfo`.
 */

export interface CollectionOptions {
  validator?: Document;
  validationLevel?: 'off' | 'strict' | 'moderate';
  validationAction?: 'error' | 'warn';
  viewOn?: string;
  pipeline?: Document[];
  [option: string]: unknown;
}

function bsonTypeOf(v: unknown): string[] {
  if (v === null || v === undefined) return ['null'];
  if (typeof v === 'string') return ['string'];
  if (typeof v === 'boolean') return ['bool'];
  if (typeof v === 'number')
    return Number.isInteger(v) ? ['int', 'long', 'double', 'number'] : ['double', 'number'];
  if (Array.isArray(v)) return ['array'];
  if (v instanceof Date) return ['date'];
  if (v instanceof RegExp) return ['regex'];
  switch ((v as { _bsontype?: string })._bsontype) {
    case 'ObjectId':
      return ['objectId'];
    case 'Decimal128':
      return ['decimal', 'number'];
    case 'Long':
      return ['long', 'number'];
    case 'Int32':
      return ['int', 'number'];
    case 'Double':
      return ['double', 'number'];
    case 'Binary':
      return ['binData'];
    case 'Timestamp':
      return ['timestamp'];
    default:
      return typeRank(v) === RANK.object ? ['object'] : ['unknown'];
  }
}

const JSON_TYPES: Record<string, string[]> = {
  object: ['object'],
  array: ['array'],
  string: ['string'],
  boolean: ['bool'],
  null: ['null'],
  number: ['number'],
  integer: ['int', 'long'],
};

/** The rules a value breaks, as mongod's `schemaRulesNotSatisfied` entries (empty when it passes). */
function checkSchema(schema: Document, value: unknown, path: string): Document[] {
  const failures: Document[] = [];
  const types = bsonTypeOf(value);
  const wanted = (list: unknown) => (Array.isArray(list) ? list : [list]) as string[];
  if (schema.bsonType !== undefined && !wanted(schema.bsonType).some((t) => types.includes(t)))
    failures.push({
      operatorName: 'bsonType',
      specifiedAs: { bsonType: schema.bsonType },
      reason: 'type did not match',
      consideredValue: value,
      path,
    });
  if (
    schema.type !== undefined &&
    !wanted(schema.type).some((t) => (JSON_TYPES[t] ?? [t]).some((x) => types.includes(x)))
  )
    failures.push({
      operatorName: 'type',
      specifiedAs: { type: schema.type },
      reason: 'type did not match',
      consideredValue: value,
      path,
    });
  if (
    Array.isArray(schema.enum) &&
    !schema.enum.some((e: unknown) => JSON.stringify(e) === JSON.stringify(value))
  )
    failures.push({
      operatorName: 'enum',
      specifiedAs: { enum: schema.enum },
      reason: 'value was not found in enum',
      consideredValue: value,
      path,
    });
  if (typeof value === 'number') {
    if (
      typeof schema.minimum === 'number' &&
      (schema.exclusiveMinimum ? value <= schema.minimum : value < schema.minimum)
    )
      failures.push({
        operatorName: 'minimum',
        specifiedAs: { minimum: schema.minimum },
        reason: 'comparison failed',
        consideredValue: value,
        path,
      });
    if (
      typeof schema.maximum === 'number' &&
      (schema.exclusiveMaximum ? value >= schema.maximum : value > schema.maximum)
    )
      failures.push({
        operatorName: 'maximum',
        specifiedAs: { maximum: schema.maximum },
        reason: 'comparison failed',
        consideredValue: value,
        path,
      });
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (typeof schema.minLength === 'number' && length < schema.minLength)
      failures.push({
        operatorName: 'minLength',
        specifiedAs: { minLength: schema.minLength },
        reason: 'specified string length was not satisfied',
        consideredValue: value,
        path,
      });
    if (typeof schema.maxLength === 'number' && length > schema.maxLength)
      failures.push({
        operatorName: 'maxLength',
        specifiedAs: { maxLength: schema.maxLength },
        reason: 'specified string length was not satisfied',
        consideredValue: value,
        path,
      });
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value))
      failures.push({
        operatorName: 'pattern',
        specifiedAs: { pattern: schema.pattern },
        reason: 'regular expression did not match',
        consideredValue: value,
        path,
      });
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems)
      failures.push({
        operatorName: 'minItems',
        specifiedAs: { minItems: schema.minItems },
        reason: 'array did not match specified length',
        consideredValue: value,
        path,
      });
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems)
      failures.push({
        operatorName: 'maxItems',
        specifiedAs: { maxItems: schema.maxItems },
        reason: 'array did not match specified length',
        consideredValue: value,
        path,
      });
    if (schema.items && typeof schema.items === 'object' && !Array.isArray(schema.items))
      value.forEach((item, i) =>
        failures.push(...checkSchema(schema.items as Document, item, `${path}.${i}`)),
      );
  }
  if (types.includes('object')) {
    const doc = value as Document;
    if (Array.isArray(schema.required)) {
      const missing = (schema.required as string[]).filter((f) => doc[f] === undefined);
      if (missing.length)
        failures.push({
          operatorName: 'required',
          specifiedAs: { required: schema.required },
          missingProperties: missing,
        });
    }
    const properties = (schema.properties ?? {}) as Record<string, Document>;
    const propertyFailures: Document[] = [];
    for (const [name, sub] of Object.entries(properties)) {
      if (doc[name] === undefined) continue;
      const details = checkSchema(sub, doc[name], name);
      if (details.length) propertyFailures.push({ propertyName: name, details });
    }
    if (propertyFailures.length)
      failures.push({ operatorName: 'properties', propertiesNotSatisfied: propertyFailures });
    if (schema.additionalProperties === false) {
      const extra = Object.keys(doc).filter((k) => !(k in properties));
      if (extra.length)
        failures.push({
          operatorName: 'additionalProperties',
          specifiedAs: { additionalProperties: false },
          additionalProperties: extra,
        });
    }
  }
  return failures;
}

/** Whether a document passes a validator, and mongod's `details` when it does not. */
export function validate(validator: Document, doc: Document): Document | undefined {
  const { $jsonSchema, ...query } = validator;
  const details: Document[] = [];
  if ($jsonSchema && typeof $jsonSchema === 'object') {
    const failures = checkSchema($jsonSchema as Document, doc, '');
    if (failures.length) details.push({ operatorName: '$jsonSchema', schemaRulesNotSatisfied: failures });
  }
  if (Object.keys(query).length && !new Query(query).test(doc))
    details.push({
      operatorName: '$and',
      clausesNotSatisfied: Object.keys(query).map((k) => ({ field: k })),
    });
  if (!details.length) return undefined;
  return details.length === 1 ? details[0] : { operatorName: '$and', clausesNotSatisfied: details };
}

/** Throws 121 DocumentValidationFailure when `next` breaks the collection's validator (per level and action). */
export function enforceValidator(
  options: CollectionOptions,
  next: Document,
  previous: Document | undefined,
): void {
  const validator = options.validator;
  if (!validator || Object.keys(validator).length === 0 || options.validationLevel === 'off') return;
  if (options.validationAction === 'warn') return;
  // moderate: updates to documents that already broke the rules are not checked
  if (options.validationLevel === 'moderate' && previous && validate(validator, previous)) return;
  const details = validate(validator, next);
  if (!details) return;
  throw new MongoCommandError(121, 'DocumentValidationFailure', 'Document failed validation', {
    errInfo: { failingDocumentId: next._id, details },
  });
}
