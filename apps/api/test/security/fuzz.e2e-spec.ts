import fc from 'fast-check';
import * as yaml from 'js-yaml';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import * as fs from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { isCleanText } from '../../src/common/validation';
import { ADDRESS, PASSWORD, startSecurityShop, type Account, type SecurityShop } from './support';

/**
 * Property-based fuzzing driven by openapi.yaml (issue 16): every operation receives generated
 * hostile values (unclean text, null, wrong types, huge and tiny numbers, deep and wide bodies, odd
 * Unicode, operator and prototype keys) in its body, query and path, with a valid token of the role
 * it needs. Any 5xx fails, and so does stored data that its schema would refuse afterwards.
 * Bounded: FUZZ_RUNS runs per operation (default 12) and a time limit per operation.
 */

type Schema = {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
};
type Operation = {
  method: string;
  path: string;
  parameters: { name: string; in: string; schema?: Schema }[];
  body?: Schema;
  admin: boolean;
  secured: boolean;
};

const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const TIME_PER_OPERATION_MS = Number(process.env.FUZZ_MS ?? 4000);

const document = yaml.load(fs.readFileSync(path.resolve(__dirname, '../../../../openapi.yaml'), 'utf8')) as {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, Schema> };
};

function resolve(schema: Schema | undefined, depth = 0): Schema | undefined {
  if (!schema || depth > 5) return schema;
  if (schema.$ref) return resolve(document.components.schemas[schema.$ref.split('/').pop()!], depth + 1);
  if (schema.allOf) {
    const parts = schema.allOf.map((s) => resolve(s, depth + 1) ?? {});
    return { type: 'object', properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})) };
  }
  return schema;
}

const OPERATIONS: Operation[] = Object.entries(document.paths).flatMap(([route, ops]) =>
  Object.entries(ops).map(([method, op]) => {
    const responses = (op.responses ?? {}) as Record<string, { description?: string }>;
    const content = (op.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined)
      ?.content;
    return {
      method,
      path: route,
      parameters: (op.parameters ?? []) as Operation['parameters'],
      body: resolve(content?.['application/json']?.schema) ?? (content ? { type: 'object' } : undefined),
      admin: /not an admin/i.test(responses['403']?.description ?? ''),
      secured: Array.isArray(op.security) && op.security.length > 0,
    };
  }),
);

// ---- hostile values ------------------------------------------------------------------------

const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  '\ud83d',
  '😀🇪🇹',
  'ሰላም',
  '\u202e\u200b\ufeff',
  'e\u0301',
  '$gt',
  '$where',
  '__proto__',
  'constructor',
  '{"$gt":""}',
  '[]',
  '.*',
  '(a+)+$',
  '\\',
  '%00',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  'javascript:alert(1)',
  '1e-7',
  '5e-324',
  '1e21',
  'NaN',
  '-1',
  '0x1f',
  'true',
  'null',
  'a@b',
  `x${'\ud800'}@example.et`,
  '0123456789abcdef01234567',
  'ffffffffffffffffffffffff',
];

const hostileString = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  {
    weight: 2,
    arbitrary: fc.string({
      unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
      maxLength: 20,
    }),
  },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 4 }).map((n) => 'A'.repeat(10 ** n + 1)) },
);

const hostileNumber = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    1e-7,
    5e-324,
    1e21,
    1e308,
    -1e308,
    2 ** 53,
    2 ** 53 + 2,
    0.1 + 0.2,
    12.345,
    1.005,
    99999999,
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** Objects whose keys are operators or prototype names (written as own keys, as JSON.parse makes them). */
const operatorObject = fc
  .tuple(
    fc.constantFrom('$gt', '$ne', '$where', '$regex', '__proto__', 'constructor', 'prototype', '$set', 'a.b'),
    fc.jsonValue({ maxDepth: 1 }),
  )
  .map(([key, value]) => JSON.parse(`{${JSON.stringify(key)}:${JSON.stringify(value ?? null)}}`) as unknown);

const deepObject = fc.integer({ min: 20, max: 60 }).map((depth) => {
  let node: unknown = 'bottom';
  for (let i = 0; i < depth; i++) node = i % 2 ? [node] : { a: node };
  return node;
});
const wideObject = fc
  .integer({ min: 100, max: 3000 })
  .map((n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])));
const wideArray = fc
  .integer({ min: 100, max: 5000 })
  .map((n) => Array.from({ length: n }, (_, i) => (i % 2 ? 'x' : i)));

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 2, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], ['\u0000'], [{}]) },
  { weight: 2, arbitrary: operatorObject },
  { weight: 1, arbitrary: deepObject },
  { weight: 1, arbitrary: wideObject },
  { weight: 1, arbitrary: wideArray },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** A plausible value of a schema, so that the hostile ones reach the deeper rules too. */
function plausible(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (!s || depth > 3) return hostileValue;
  if (s.enum?.length) return fc.constantFrom(...s.enum);
  switch (s.type) {
    case 'string':
      return fc.constantFrom(
        'Moringa Glow',
        'hanna@example.et',
        'Addis Ababa',
        '0911234567',
        'Buna@2026x',
        'ok',
      );
    case 'number':
    case 'integer':
      return fc.constantFrom(0, 1, 2, 5, 150, 890.5);
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(plausible(s.items, depth + 1), { maxLength: 3 });
    case 'object':
      return s.properties
        ? bodyFor(s, depth + 1)
        : fc.dictionary(fc.string({ maxLength: 5 }), hostileValue, { maxKeys: 3 });
    default:
      return hostileValue;
  }
}

/** Each field left out, plausible or hostile (mostly hostile), plus now and then an extra hostile key. */
function bodyFor(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  const fields = Object.entries(s?.properties ?? {});
  const record = fc.record(
    Object.fromEntries(
      fields.map(([name, field]) => [
        name,
        fc.oneof(
          { weight: 1, arbitrary: fc.constant(undefined) },
          { weight: 2, arbitrary: plausible(field, depth) },
          { weight: 4, arbitrary: hostileValue },
        ),
      ]),
    ),
  );
  return fc.tuple(record, fc.option(operatorObject, { freq: 4 })).map(([values, extra]) => {
    const body: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(values)) if (v !== undefined) body[k] = v;
    return extra && typeof extra === 'object' ? { ...body, ...(extra as object) } : body;
  });
}

const wholeBody = (schema: Schema | undefined) =>
  fc.oneof(
    { weight: 8, arbitrary: bodyFor(schema) },
    { weight: 1, arbitrary: hostileValue },
    {
      weight: 1,
      arbitrary: fc.constantFrom('{', '{"a":1,}', 'null', '"text"', '[1,2', '{"__proto__":{"role":"admin"}}'),
    },
  );

/** encodeURIComponent, except that a lone surrogate goes as the bytes a careless client would send. */
function percentEncode(text: string): string {
  return text.replace(/[\s\S]/gu, (c) => {
    try {
      return encodeURIComponent(c);
    } catch {
      const code = c.charCodeAt(0);
      return [
        '%' + (0xe0 | (code >> 12)).toString(16),
        '%' + (0x80 | ((code >> 6) & 0x3f)).toString(16),
        '%' + (0x80 | (code & 0x3f)).toString(16),
      ]
        .join('')
        .toUpperCase();
    }
  });
}

// ---- the run -------------------------------------------------------------------------------

describe('fuzzing every operation of openapi.yaml (issue 16)', () => {
  let shop: SecurityShop;
  let customer: Account;
  let victim: Account;
  /** Signs in afresh for each run of the operations that end the session they are called with. */
  let sessions: Account;
  const ids: Record<string, string[]> = {};

  beforeAll(async () => {
    shop = await startSecurityShop({ AUTH_RATE_LIMIT: '100000', CONTACT_RATE_LIMIT: '100000' });
    customer = await shop.customer();
    victim = await shop.customer();
    sessions = await shop.customer();
    const product = await shop.product();
    const http = shop.t.http;
    await request(http).post('/api/users/addresses').set(shop.auth(customer.token)).send(ADDRESS).expect(201);
    await request(http)
      .post('/api/cart/add')
      .set(shop.auth(customer.token))
      .send({ productId: product, quantity: 1 });
    const order = await request(http)
      .post('/api/orders')
      .set(shop.auth(customer.token))
      .send({ shippingAddress: ADDRESS, paymentMethod: 'cash_on_delivery', shippingMethod: 'standard' });
    const review = await request(http)
      .post(`/api/reviews/product/${product}`)
      .set(shop.auth(customer.token))
      .send({ rating: 5, title: 'Lovely', comment: 'Soft skin after a week' });
    const contact = await request(http).post('/api/contacts/submit').send({
      name: 'Abebe',
      email: 'abebe@example.et',
      subject: 'Hello',
      message: 'A question about delivery',
    });
    const known = [
      product,
      victim.id,
      order.body?.order?._id ?? order.body?._id,
      review.body?.review?._id,
      contact.body?.contact?._id ?? contact.body?.id,
    ].filter((v): v is string => typeof v === 'string');
    ids.id = [...known, '1'];
    ids.productId = [product];
    ids.txRef = ['tx-unknown'];
    ids.file = ['missing.webp'];
  }, 120_000);
  afterAll(() => shop?.close());

  const pathValue = (name: string) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...(ids[name] ?? ['x'])) },
      { weight: 2, arbitrary: hostileString },
      { weight: 1, arbitrary: hostileNumber.map(String) },
    );

  const queryValue = fc.oneof(
    { weight: 3, arbitrary: hostileString },
    { weight: 1, arbitrary: hostileNumber.map(String) },
    { weight: 2, arbitrary: hostileValue.map((v) => JSON.stringify(v) ?? 'undefined') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '["a","ASC"]',
        '[0,9]',
        '[5,1]',
        '[0,1e9]',
        '{"q":"\\u0000"}',
        '{"id":[1,{"$gt":0}]}',
      ),
    },
  );

  /** A fresh session of the throwaway account, for operations that end the session they are called with. */
  const freshToken = async (account: Account) =>
    (await request(shop.t.http).post('/api/auth/login').send({ email: account.email, password: PASSWORD }))
      .body.token as string | undefined;

  /** Sends hostile requests to one operation; answers the first 5xx seen. */
  async function fuzz(op: Operation): Promise<string | undefined> {
    let failure: string | undefined;
    const pathParams = op.parameters.filter((p) => p.in === 'path');
    const queryParams = op.parameters.filter((p) => p.in === 'query');
    const arbitrary = fc.record({
      path: fc.record(Object.fromEntries(pathParams.map((p) => [p.name, pathValue(p.name)]))),
      query: fc.record(
        Object.fromEntries(queryParams.map((p) => [p.name, fc.option(queryValue, { freq: 3 })])),
      ),
      body: op.body ? wholeBody(op.body) : fc.constant(undefined),
    });
    const endsSession = /\/auth\/logout|\/profile\/password/.test(op.path);
    await fc
      .assert(
        fc.asyncProperty(arbitrary, async (input) => {
          const url = op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
            percentEncode(String((input.path as Record<string, unknown>)[name])),
          );
          const query = Object.fromEntries(
            Object.entries(input.query as Record<string, unknown>).filter(
              ([, v]) => v !== null && v !== undefined,
            ),
          );
          let token = op.admin ? shop.admin.token : customer.token;
          if (endsSession) token = (await freshToken(sessions)) ?? token;
          let req = request(shop.t.http)[op.method as 'get'](url).query(query);
          if (op.secured || endsSession) req = req.set(shop.auth(token));
          if (input.body !== undefined) {
            req = req.set('Content-Type', 'application/json');
            req = req.send(
              typeof input.body === 'string' && /^[{["n]/.test(input.body)
                ? input.body
                : JSON.stringify(input.body),
            );
          }
          const res = await req;
          if (/\/admin\/settings$/.test(op.path) && op.method === 'put')
            await request(shop.t.http)
              .put('/api/admin/settings')
              .set(shop.auth(shop.admin.token))
              .send({ maintenanceMode: false });
          if (res.status >= 500) {
            failure = `${op.method.toUpperCase()} ${url}?${new URLSearchParams(query as Record<string, string>)} ${JSON.stringify(input.body)?.slice(0, 300)} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
            return false;
          }
          return true;
        }),
        {
          numRuns: RUNS,
          interruptAfterTimeLimit: TIME_PER_OPERATION_MS,
          endOnFailure: true,
          seed: Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31),
        },
      )
      .catch((error: Error) => {
        failure ??= error.message.split('\n').slice(0, 4).join(' ').slice(0, 600);
      });
    return failure;
  }

  it('answers no 5xx to any operation, whatever it is sent', async () => {
    expect(OPERATIONS.length).toBeGreaterThan(60);
    const failures: string[] = [];
    for (const op of OPERATIONS) {
      const failure = await fuzz(op);
      if (failure) failures.push(failure);
    }
    expect(failures).toEqual([]);
  }, 400_000);

  it('leaves stored data that its schemas accept: no unclean text, no null where a value is meant', async () => {
    const connection = shop.t.app.get<Connection>(getConnectionToken());
    const problems: string[] = [];
    for (const model of Object.values(connection.models)) {
      const hidden = Object.entries(model.schema.paths)
        .filter(([, type]) => (type as { options?: { select?: boolean } }).options?.select === false)
        .map(([name]) => `+${name}`);
      const docs = await model.find().select(hidden.join(' ')).lean().exec();
      for (const doc of docs) {
        const error = new model(doc).validateSync();
        if (error) problems.push(`${model.modelName} ${String(doc._id)}: ${error.message.slice(0, 200)}`);
        const stack: [unknown, string][] = [[doc, '']];
        while (stack.length) {
          const [node, at] = stack.pop()!;
          if (typeof node === 'string' && !isCleanText(node))
            problems.push(`${model.modelName}${at}: unclean text`);
          else if (node && typeof node === 'object' && !(node instanceof Date) && !('_bsontype' in node))
            for (const [k, v] of Object.entries(node)) stack.push([v, `${at}.${k}`]);
        }
      }
    }
    const users = (await shop.model('User').find().lean()) as unknown as { addresses?: unknown[] }[];
    for (const user of users) expect((user.addresses ?? []).length).toBeLessThanOrEqual(20);
    const products = (await shop.model('Product').find().lean()) as unknown as Record<string, unknown>[];
    for (const product of products) {
      for (const field of ['brand', 'currency', 'category', 'name']) expect(product[field]).not.toBeNull();
      expect(Number.isSafeInteger(product.priceSantim)).toBe(true);
    }
    expect(problems).toEqual([]);
    // and the screens that read them still work
    await request(shop.t.http).get('/api/admin/dashboard/stats').set(shop.auth(shop.admin.token)).expect(200);
    await request(shop.t.http).get('/api/admin/settings').set(shop.auth(shop.admin.token)).expect(200);
    await request(shop.t.http).get('/api/settings/public').expect(200);
    await request(shop.t.http).get('/api/products').expect(200);
  });
});
