import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** The answer of a fast serializer that cannot vouch for a value: zod decides instead. */
const UNSURE = Symbol('unsure');
type Fast = (value: unknown) => string | typeof UNSURE;

/*
 * Schemas are read through Zod 4 Classic's public API (ADR 0082), never `_zod`, so the fast path
 * does not hang on internals that zod's changelog calls "subject to change". Sources: zod's docs
 * (github.com/colinhacks/zod packages/docs/content, read at e516c3b) and the installed
 * classic/schemas.d.ts:
 * - the classes, by `instanceof`: "All schemas extend the `z.ZodType` base class" (packages/
 *   zod.mdx); zod 4's classes match by trait name, so a second copy of zod still matches;
 * - the documented accessors, api.mdx: `Dog.shape`, `stringArray.unwrap()`,
 *   `stringOrNumber.options`, `optionalYoda.unwrap()`, `nullableYoda.unwrap()`, literal `.values`;
 *   the record's `keyType` / `valueType` and the string's `format` are typed public in schemas.d.ts;
 * - `.def`, the definition given to the constructor (packages/core.mdx: "`.def.checks` — An array
 *   of checks"; api.mdx reads `.def.shape`, `.def.options`; `_def` is "@deprecated Use `.def`
 *   instead"), for what has no accessor: checks, `catchall`, a record's `mode` and `partial`.
 * ZodNumber's `isInt` is not used: "@deprecated Check the `format` property instead", and true
 * for `.multipleOf(1)`. z.toJSONSchema() is not used either: a `.refine()` has no JSON Schema
 * form, so a refined schema would look plain and the fast path would vouch for values zod
 * rejects. A Zod Mini schema is no classic instance: it goes to zod, as any unknown shape does.
 */

const checksOf = (schema: z.ZodType): readonly unknown[] => schema.def.checks ?? [];

/**
 * The format a z.int() / z.int32() … was built with: its def is that constructor's definition.
 * Classic types `.def` as ZodNumber's, hence the cast. Not `.format`: that is the last format
 * check's, so z.int32().int() says 'safeint' there while zod still checks the int32 range.
 */
const builtFormat = (schema: z.ZodNumberFormat): unknown =>
  (schema.def as { format?: unknown }).format;

/** z.int(), z.number().int() / .safe(): zod's safe-integer format and nothing else. */
const isSafeInt = (schema: z.ZodNumber): boolean =>
  (!(schema instanceof z.ZodNumberFormat) || builtFormat(schema) === 'safeint') &&
  checksOf(schema).every((c) => c instanceof z.ZodNumberFormat && builtFormat(c) === 'safeint');

/** A z.string() with no check and no format (a format is z.email() and its kin, ZodStringFormat). */
const isPlainString = (schema: unknown): schema is z.ZodString =>
  schema instanceof z.ZodString && checksOf(schema).length === 0 && schema.format === null;

/** z.string().nullable() and the like: null, or what the inner schema vouches for. */
const nullableOf =
  (inner: Fast): Fast =>
  (v) =>
    v === null ? 'null' : inner(v);

/** zod answers with the first option that accepts the value. */
const unionOf =
  (fasts: Fast[]): Fast =>
  (v) => {
    for (const f of fasts) {
      const out = f(v);
      if (out !== UNSURE) return out;
    }
    return UNSURE;
  };

const arrayOf =
  (element: Fast): Fast =>
  (v) => {
    if (!Array.isArray(v)) return UNSURE;
    const parts: string[] = [];
    for (const item of v) {
      const out = element(item);
      if (out === UNSURE) return UNSURE;
      parts.push(out);
    }
    return `[${parts.join(',')}]`;
  };

type Prop = { key: string; head: string; optional: boolean; fast: Fast };

const objectOf =
  (props: Prop[]): Fast =>
  (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return UNSURE;
    const o = v as Record<string, unknown>;
    let out = '';
    for (const p of props) {
      const value = o[p.key];
      // An absent optional property, or one set to undefined: no key in the JSON either way.
      if (p.optional && value === undefined) continue;
      const s = p.fast(value);
      if (s === UNSURE) return UNSURE;
      out += out === '' ? p.head + s : `,${p.head}${s}`;
    }
    return `{${out}}`;
  };

const recordOf =
  (value: Fast): Fast =>
  (v) => {
    // zod takes plain objects only, and a symbol key fails z.string(): both left to it.
    if (typeof v !== 'object' || v === null) return UNSURE;
    const proto: unknown = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return UNSURE;
    if (Object.getOwnPropertySymbols(v).length > 0) return UNSURE;
    const o = v as Record<string, unknown>;
    let out = '';
    // Own enumerable string keys in their own order, as zod copies them; it drops __proto__.
    for (const k of Object.keys(o)) {
      if (k === '__proto__') continue;
      const s = value(o[k]);
      if (s === UNSURE) return UNSURE;
      out += out === '' ? `${JSON.stringify(k)}:${s}` : `,${JSON.stringify(k)}:${s}`;
    }
    return `{${out}}`;
  };

const compileObject = (schema: z.ZodObject): Fast | null => {
  // Only zod's default: unknown keys are stripped (catchall, strict and loose differ).
  if (schema.def.catchall !== undefined || checksOf(schema).length > 0) return null;
  const props: Prop[] = [];
  for (const [key, prop] of Object.entries(schema.shape)) {
    // z.exactOptional (absent, never undefined) is not a ZodOptional: it goes to zod.
    const optional = prop instanceof z.ZodOptional;
    if (optional && checksOf(prop).length > 0) return null;
    const fast = compile(optional ? prop.unwrap() : prop);
    if (!fast) return null;
    props.push({ key, head: `${JSON.stringify(key)}:`, optional, fast });
  }
  return objectOf(props);
};

const compileRecord = (schema: z.ZodRecord): Fast | null => {
  // Only z.record(z.string(), …): a key schema with a check or a set of values, a loose or
  // partial record, are zod's to answer.
  if (!isPlainString(schema.keyType)) return null;
  const def = schema.def;
  if (checksOf(schema).length > 0 || def.mode !== undefined || def.partial) return null;
  const value = compile(schema.valueType);
  return value && recordOf(value);
};

function compile(schema: unknown): Fast | null {
  // A check (a refine, a length, a format…) is zod's to run, whatever it is on; the number
  // branch alone reads its checks, for the safe-integer one.
  if (!(schema instanceof z.ZodType)) return null;
  if (!(schema instanceof z.ZodNumber) && checksOf(schema).length > 0) return null;
  if (schema instanceof z.ZodString) {
    if (!isPlainString(schema)) return null;
    return (v) => (typeof v === 'string' ? JSON.stringify(v) : UNSURE);
  }
  if (schema instanceof z.ZodNumber) {
    if (checksOf(schema).length === 0 && !(schema instanceof z.ZodNumberFormat))
      return (v) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : UNSURE);
    if (!isSafeInt(schema)) return null;
    return (v) => (Number.isSafeInteger(v) ? String(v) : UNSURE);
  }
  if (schema instanceof z.ZodBoolean)
    return (v) => (v === true ? 'true' : v === false ? 'false' : UNSURE);
  if (schema instanceof z.ZodLiteral) {
    const values: unknown[] = [...schema.values];
    if (!values.every((x) => x === null || ['string', 'number', 'boolean'].includes(typeof x)))
      return null;
    return (v) => (values.includes(v) ? JSON.stringify(v) : UNSURE);
  }
  // z.enum([...]) and z.enum(SomeTsEnum): `.options` is the values zod accepts (api.mdx, "Enums").
  if (schema instanceof z.ZodEnum) {
    const values: unknown[] = [...schema.options];
    if (!values.every((x) => ['string', 'number'].includes(typeof x))) return null;
    return (v) => (values.includes(v) ? JSON.stringify(v) : UNSURE);
  }
  if (schema instanceof z.ZodNullable) {
    const inner = compile(schema.unwrap());
    return inner && nullableOf(inner);
  }
  // z.xor rejects a value two options accept, which a first-match answer cannot tell.
  if (schema instanceof z.ZodXor) return null;
  // z.discriminatedUnion answers as z.union does for the values its options accept.
  if (schema instanceof z.ZodUnion) {
    const options = schema.options.map(compile);
    if (options.length === 0 || options.some((o) => o === null)) return null;
    return unionOf(options as Fast[]);
  }
  if (schema instanceof z.ZodArray) {
    if (checksOf(schema).length > 0) return null;
    const element = compile(schema.unwrap());
    return element && arrayOf(element);
  }
  if (schema instanceof z.ZodObject) return compileObject(schema);
  if (schema instanceof z.ZodRecord) return compileRecord(schema);
  return null;
}

/*
 * The exact path. Where a value has exactly the schema's shape (each object plain, with the
 * schema's keys in the schema's order and no other; every value one the writer above vouches
 * for), JSON.stringify writes the same text as the writer, and V8's JSON.stringify is about twice
 * as fast as building the text in JavaScript (GET /api/posts: 46 KB in ~120 µs against ~250 µs).
 * `exactOf` checks that without writing; any doubt answers false and the writer decides.
 * JSON.stringify differs from the writer only where these checks refuse: a key the schema lacks
 * (stripped by the writer), keys in another order (the writer follows the schema), a toJSON or a
 * prototype other than Object's (the writer reads properties; JSON.stringify calls toJSON), an
 * own `__proto__` key in a record (the writer drops it, as zod does).
 */
type Exact = (v: unknown) => boolean;

const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== 'object' || v === null) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

const exactObject = (props: readonly { key: string; optional: boolean; exact: Exact }[]): Exact => {
  const n = props.length;
  return (v) => {
    if (!isPlainObject(v)) return false;
    // The object's keys (own enumerable, in order: its prototype is Object's or none) walked
    // against the schema's: a key that is not the next expected one, or a value it refuses.
    let i = 0;
    for (const k in v) {
      let p = props[i];
      // An optional property left out: no key on either side.
      while (p !== undefined && p.key !== k && p.optional && v[p.key] === undefined) p = props[++i];
      if (p === undefined || p.key !== k) return false;
      const value = v[k];
      // Present as undefined: neither writes it.
      if (!(p.optional && value === undefined) && !p.exact(value)) return false;
      i++;
    }
    for (; i < n; i++) {
      const p = props[i] as (typeof props)[number];
      if (!p.optional || v[p.key] !== undefined) return false;
    }
    return true;
  };
};

function compileExact(schema: unknown): Exact | null {
  // Only where the writer vouches (same refusals as `compile`), and no union of anything but
  // primitives: the writer takes a union's first option that accepts the value, which for
  // objects may strip keys another option would keep.
  if (!(schema instanceof z.ZodType) || compile(schema) === null) return null;
  if (schema instanceof z.ZodString) return (v) => typeof v === 'string';
  if (schema instanceof z.ZodNumber) {
    if (checksOf(schema).length === 0 && !(schema instanceof z.ZodNumberFormat))
      return (v) => typeof v === 'number' && Number.isFinite(v);
    return (v) => Number.isSafeInteger(v);
  }
  if (schema instanceof z.ZodBoolean) return (v) => v === true || v === false;
  if (schema instanceof z.ZodLiteral) {
    const values: unknown[] = [...schema.values];
    return (v) => values.includes(v);
  }
  if (schema instanceof z.ZodEnum) {
    const values: unknown[] = [...schema.options];
    return (v) => values.includes(v);
  }
  if (schema instanceof z.ZodNullable) {
    const inner = compileExact(schema.unwrap());
    return inner && ((v) => v === null || inner(v));
  }
  if (schema instanceof z.ZodUnion) {
    const primitive = (o: unknown): boolean =>
      o instanceof z.ZodString ||
      o instanceof z.ZodNumber ||
      o instanceof z.ZodBoolean ||
      o instanceof z.ZodLiteral ||
      o instanceof z.ZodEnum ||
      (o instanceof z.ZodNullable && primitive(o.unwrap()));
    if (!schema.options.every(primitive)) return null;
    const options = schema.options.map(compileExact) as Exact[];
    return (v) => options.some((o) => o(v));
  }
  if (schema instanceof z.ZodArray) {
    const element = compileExact(schema.unwrap());
    return (
      element &&
      ((v) => {
        if (!Array.isArray(v)) return false;
        for (let i = 0; i < v.length; i++) if (!element(v[i])) return false;
        return true;
      })
    );
  }
  if (schema instanceof z.ZodObject) {
    const props: { key: string; optional: boolean; exact: Exact }[] = [];
    for (const [key, prop] of Object.entries(schema.shape)) {
      const optional = prop instanceof z.ZodOptional;
      const exact = compileExact(optional ? prop.unwrap() : prop);
      if (!exact) return null;
      props.push({ key, optional, exact });
    }
    return exactObject(props);
  }
  if (schema instanceof z.ZodRecord) {
    const value = compileExact(schema.valueType);
    return (
      value &&
      ((v) => {
        if (!isPlainObject(v) || Object.getOwnPropertySymbols(v).length > 0) return false;
        for (const k of Object.keys(v)) if (k === '__proto__' || !value(v[k])) return false;
        return true;
      })
    );
  }
  return null;
}

/**
 * Whether `value` takes the exact path under `schema` (one JSON.stringify): for tests that keep a
 * presenter's keys in its schema's order.
 */
export const isExactShape = (schema: z.ZodType, value: unknown): boolean =>
  compileExact(schema)?.(value) ?? false;

/**
 * A serializer for the plain shapes our responses use (objects that strip unknown keys, strings,
 * numbers, integers, booleans, literals, enums, nullable, optional properties, unions, arrays, records
 * with plain string keys), which checks each value as zod would and writes the JSON in the same
 * pass. null when the schema has anything else (a check, a transform, a date…): zod serializes
 * those routes unchanged.
 */
export const compileFastSerializer = (schema: z.ZodType): Fast | null => {
  const write = compile(schema);
  if (!write) return null;
  const exact = compileExact(schema);
  return exact ? (v) => (exact(v) ? JSON.stringify(v) : write(v)) : write;
};

/**
 * The zod type provider's serializer compiler with a fast path (ADR 0016): where the response
 * schema is one of the plain shapes above and the value passes it, the JSON is written in one
 * pass; otherwise zod parses and serializes as before, and answers any mismatch with its error.
 */
export const serializerCompiler: typeof zodSerializerCompiler = (route) => {
  const slow = zodSerializerCompiler(route);
  // As the provider resolves it: a zod type, or one under `properties`.
  const given: unknown = route.schema;
  const schema =
    given instanceof z.ZodType
      ? given
      : typeof given === 'object' && given !== null && 'properties' in given
        ? given.properties
        : null;
  const fast = schema instanceof z.ZodType ? compileFastSerializer(schema) : null;
  if (!fast) return slow;
  return (data) => {
    const out = fast(data);
    return out === UNSURE ? slow(data) : out;
  };
};
