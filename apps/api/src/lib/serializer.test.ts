import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ok, userSchema } from '@tenpo/domain';
import { compileFastSerializer, serializerCompiler } from './serializer';

const route = (schema: z.ZodType) => ({ schema, method: 'GET', url: '/t', httpStatus: '200' });
/** zod's own answer: its JSON, or the error it throws. */
const viaZod = (schema: z.ZodType, data: unknown) => {
  try {
    return { json: zodSerializerCompiler(route(schema))(data) };
  } catch (err) {
    return { error: (err as Error).name };
  }
};
const viaOurs = (schema: z.ZodType, data: unknown) => {
  try {
    return { json: serializerCompiler(route(schema))(data) };
  } catch (err) {
    return { error: (err as Error).name };
  }
};

const user = {
  id: 1,
  email: 'shop@tenpo.example',
  name: '店舗 "一号" \\ \n',
  role: 1,
  is_leader: false,
  agreed_terms: 1,
  created_at: '2026-01-01T00:00:00.000Z',
  phone: null,
  company_name: 'Tenpo',
  store_name: null,
  logo_url: null,
  agent_code: null,
  in_trial: false,
  trial_ends_at: null,
  payment_fail: true,
  agency_logo: null,
  status: 1,
};

const plain = z.object({
  n: z.number(),
  i: z.number().int(),
  s: z.string(),
  b: z.boolean(),
  lit: z.union([z.literal(0), z.literal('x'), z.literal(true)]),
  maybe: z.string().nullable(),
  opt: z.number().optional(),
  list: z.array(z.object({ a: z.string() })),
});
const good = { n: 1.5, i: -3, s: 'é', b: true, lit: 'x', maybe: null, list: [{ a: 'q' }] };

// Each case: a schema and a value; ours must answer exactly as zod does.
const cases: [string, z.ZodType, unknown][] = [
  ['the user envelope', ok(userSchema), { status_code: 200, data: user }],
  ['the envelope with a message', ok(userSchema), { status_code: 200, message: 'm', data: user }],
  [
    'unknown keys are stripped',
    ok(userSchema),
    { status_code: 200, data: { ...user, password_hash: 'h' } },
  ],
  ['a missing field', ok(userSchema), { status_code: 200, data: { ...user, email: undefined } }],
  ['a wrong type', ok(userSchema), { status_code: 200, data: { ...user, is_leader: 1 } }],
  [
    'a literal outside the union',
    ok(userSchema),
    { status_code: 200, data: { ...user, agreed_terms: 2 } },
  ],
  ['a non-integer for an int', ok(userSchema), { status_code: 200.5, data: user }],
  ['an unsafe integer', ok(userSchema), { status_code: 2 ** 60, data: user }],
  ['null for the envelope', ok(userSchema), null],
  ['an array for an object', ok(userSchema), [user]],
  ['every plain shape', plain, good],
  ['optional set to undefined', plain, { ...good, opt: undefined }],
  ['optional present', plain, { ...good, opt: 0 }],
  ['NaN', plain, { ...good, n: Number.NaN }],
  ['Infinity', plain, { ...good, n: Number.POSITIVE_INFINITY }],
  ['-0', plain, { ...good, n: -0 }],
  ['a bad array element', plain, { ...good, list: [{ a: 1 }] }],
  ['an array element with extra keys', plain, { ...good, list: [{ a: 'q', b: 2 }] }],
  ['a non-array for an array', plain, { ...good, list: { 0: { a: 'q' } } }],
  ['a date for a string', plain, { ...good, s: new Date(0) }],
  [
    'an array for an object that asks only what an array has',
    z.object({ length: z.number() }),
    [1, 2],
  ],
  ['an array for an empty object', z.object({}), []],
  // Shapes the fast path leaves to zod entirely.
  ['a transform', z.object({ s: z.string().transform((s) => s.length) }), { s: 'abc' }],
  ['a check', z.object({ s: z.string().min(5) }), { s: 'abc' }],
  ['a strict object', z.strictObject({ s: z.string() }), { s: 'a', t: 1 }],
  // Records with plain string keys.
  ['a record', z.record(z.string(), z.number()), { a: 1, 'b "c"': 2, 10: 3, 2: 4 }],
  ['an empty record', z.record(z.string(), z.number()), {}],
  ['a record of objects', z.record(z.string(), plain), { 店舗: good, x: { ...good, extra: 1 } }],
  ['a bad record value', z.record(z.string(), z.number()), { a: 'x' }],
  ['an array for a record', z.record(z.string(), z.number()), [1, 2]],
  ['a date for a record', z.record(z.string(), z.number()), new Date(0)],
  ['a Map for a record', z.record(z.string(), z.number()), new Map([['a', 1]])],
  ['a record with a symbol key', z.record(z.string(), z.number()), { a: 1, [Symbol('s')]: 2 }],
  [
    'a record with an own __proto__ key',
    z.record(z.string(), z.number()),
    JSON.parse('{"a":1,"__proto__":2}') as unknown,
  ],
  [
    'a record with a non-enumerable key',
    z.record(z.string(), z.number()),
    Object.defineProperty({ a: 1 }, 'hidden', { value: 2, enumerable: false }),
  ],
  [
    'a record of null prototype',
    z.record(z.string(), z.number()),
    Object.assign(Object.create(null) as object, { a: 1 }),
  ],
  // Shapes the fast path leaves to zod entirely.
  ['a record with a key check', z.record(z.string().min(3), z.number()), { a: 1 }],
  ['a record with an enum key', z.record(z.enum(['a', 'b']), z.number()), { a: 1, b: 2 }],
  ['an int32 past its range', z.object({ n: z.int32().int() }), { n: 2 ** 40 }],
  ['z.int() at its limit', z.object({ n: z.int() }), { n: Number.MAX_SAFE_INTEGER }],
  ['z.int() past its limit', z.object({ n: z.int() }), { n: Number.MAX_SAFE_INTEGER + 1 }],
  ['a not-an-email for z.email()', z.object({ e: z.email() }), { e: 'x' }],
  // A check on a wrapper or a leaf without checks of its own is still zod's to run.
  ['a refined boolean', z.object({ b: z.boolean().refine((b) => b) }), { b: false }],
  ['a refined literal', z.object({ l: z.literal([1, 2]).refine((l) => l === 1) }), { l: 2 }],
  [
    'a refined nullable',
    z.object({
      s: z
        .string()
        .nullable()
        .refine((s) => s !== null),
    }),
    { s: null },
  ],
  [
    'a refined optional',
    z.object({
      n: z
        .number()
        .optional()
        .refine((n) => n !== 0),
    }),
    { n: 0 },
  ],
  [
    'a refined union',
    z.object({ u: z.union([z.string(), z.number()]).refine((u) => u !== 'x') }),
    { u: 'x' },
  ],
  // An exclusive union rejects a value two options accept.
  ['an xor matched twice', z.object({ x: z.xor([z.string(), z.string().nullable()]) }), { x: 'a' }],
  ['an xor matched once', z.object({ x: z.xor([z.string(), z.number()]) }), { x: 'a' }],
  // An exact optional property may be absent, never undefined.
  [
    'an exact optional set to undefined',
    z.object({ s: z.exactOptional(z.string()) }),
    { s: undefined },
  ],
  ['an exact optional absent', z.object({ s: z.exactOptional(z.string()) }), {}],
  ['an enum value', z.object({ e: z.enum(['a', 'b']) }), { e: 'b' }],
  ['a value not in the enum', z.object({ e: z.enum(['a', 'b']) }), { e: 'c' }],
  ['an enum of numbers', z.object({ e: z.enum({ A: 1, B: 2 }) }), { e: 2 }],
  ["a number's text for an enum of numbers", z.object({ e: z.enum({ A: 1, B: 2 }) }), { e: '2' }],
  ['an enum nullable and null', z.object({ e: z.enum(['a']).nullable() }), { e: null }],
  // The exact path (JSON.stringify of the value itself) against the writer's and zod's text.
  [
    'keys in another order than the schema',
    plain,
    Object.fromEntries(Object.entries(good).reverse()),
  ],
  ['an optional key first, set to undefined', plain, { opt: undefined, ...good }],
  [
    'an optional key where the schema has it',
    plain,
    { n: 1.5, i: -3, s: 'é', b: true, lit: 'x', maybe: null, opt: 7, list: [] },
  ],
  ['an optional key out of its place', plain, { ...good, opt: 7 }],
  ['an own toJSON', z.object({ s: z.string() }), { s: 'a', toJSON: () => 'x' }],
  [
    'an instance whose class has toJSON',
    z.object({ s: z.string() }),
    new (class {
      s = 'a';
      toJSON() {
        return 'x';
      }
    })(),
  ],
  [
    'an object of null prototype',
    z.object({ s: z.string() }),
    Object.assign(Object.create(null) as object, { s: 'a' }),
  ],
  // eslint-disable-next-line no-sparse-arrays -- a hole is what is tested
  ['a sparse array', plain, { ...good, list: [, { a: 'q' }] }],
  ['a string needing escapes', plain, { ...good, s: '\u2028 "\\ \n \ud800 é 店' }],
  [
    'a union of objects',
    z.object({
      u: z.union([z.object({ a: z.string() }), z.object({ a: z.string(), b: z.number() })]),
    }),
    { u: { a: 'x', b: 1 } },
  ],
  [
    'a union of primitives',
    z.object({ u: z.union([z.string(), z.number().nullable()]) }),
    { u: null },
  ],
];

describe('the fast response serializer', () => {
  it.each(cases)('answers as zod does: %s', (_name, schema, data) => {
    expect(viaOurs(schema, data)).toEqual(viaZod(schema, data));
  });

  it('takes the fast path for the plain shapes and leaves the others to zod', () => {
    expect(compileFastSerializer(ok(userSchema))).not.toBeNull();
    expect(compileFastSerializer(plain)).not.toBeNull();
    expect(compileFastSerializer(z.object({ s: z.string().min(1) }))).toBeNull();
    expect(compileFastSerializer(z.object({ s: z.string().default('a') }))).toBeNull();
    expect(compileFastSerializer(z.object({ d: z.date() }))).toBeNull();
    expect(compileFastSerializer(z.looseObject({ s: z.string() }))).toBeNull();
    expect(compileFastSerializer(z.record(z.string(), z.number()))).not.toBeNull();
    expect(compileFastSerializer(z.record(z.string().min(1), z.number()))).toBeNull();
    expect(compileFastSerializer(z.partialRecord(z.string(), z.number()))).toBeNull();
  });

  // Each kind is found by its public class and properties (ADR 0082): variants that keep the
  // fast path, and neighbours that must not be taken for a plain shape.
  it.each([
    ['z.int()', true, z.int()],
    ['z.number().safe()', true, z.number().safe()],
    ['z.int().int()', true, z.int().int()],
    ['z.coerce.number()', true, z.coerce.number()],
    ['z.coerce.string()', true, z.coerce.string()],
    // `.format` reads 'safeint' here (the last check's); zod still checks the int32 range.
    ['z.int32().int()', false, z.int32().int()],
    ['z.int32()', false, z.int32()],
    // The deprecated `isInt` is true for it; zod checks a multiple, not the safe range.
    ['z.number().multipleOf(1)', false, z.number().multipleOf(1)],
    ['z.int().refine()', false, z.int().refine(() => true)],
    // A string format is a ZodStringFormat, not a ZodString.
    ['z.email()', false, z.email()],
    ['z.iso.datetime()', false, z.iso.datetime()],
    ['z.record(z.email(), …)', false, z.record(z.email(), z.number())],
    ['z.looseRecord()', false, z.looseRecord(z.string(), z.number())],
    ['z.object().catchall()', false, z.object({}).catchall(z.string())],
    ['z.object().refine()', false, z.object({ s: z.string() }).refine(() => true)],
    ['z.array().min()', false, z.array(z.string()).min(1)],
    ['z.enum()', true, z.enum(['a', 'b'])],
    ['z.enum(a TypeScript enum)', true, z.enum({ A: 'a', B: 1 } as const)],
    ['z.enum().refine()', false, z.enum(['a', 'b']).refine(() => true)],
    ['z.literal(1n)', false, z.literal(1n)],
    [
      'z.discriminatedUnion()',
      true,
      z.discriminatedUnion('k', [z.object({ k: z.literal('a') }), z.object({ k: z.literal('b') })]),
    ],
    ['a nullish property', true, z.object({ s: z.string().nullish() })],
  ] as [string, boolean, z.ZodType][])('%s: fast path %s', (_name, fast, schema) => {
    expect(compileFastSerializer(schema) !== null).toBe(fast);
  });

  it("writes a value of exactly the schema's shape with JSON.stringify, in one call", () => {
    const fast = compileFastSerializer(ok(userSchema));
    // The user in the schema's key order.
    const data = Object.fromEntries(
      Object.keys(userSchema.shape).map((k) => [k, user[k as keyof typeof user]]),
    );
    const value = { status_code: 200, data };
    const expected = viaZod(ok(userSchema), value).json;
    const spy = vi.spyOn(JSON, 'stringify');
    try {
      expect(fast?.(value)).toBe(expected);
      expect(spy.mock.calls.map((c) => c[0])).toEqual([value]);
      spy.mockClear();
      // A key the schema lacks: the writer strips it, string by string.
      fast?.({ ...value, extra: 1 });
      expect(spy.mock.calls.length).toBeGreaterThan(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('vouches only for values zod accepts', () => {
    const fast = compileFastSerializer(ok(userSchema));
    expect(typeof fast?.({ status_code: 200, data: user })).toBe('string');
    expect(typeof fast?.({ status_code: 200, data: { ...user, role: '1' } })).toBe('symbol');
  });
});
