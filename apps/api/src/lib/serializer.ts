import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { $ZodType } from 'zod/v4/core';

/** The answer of a fast serializer that cannot vouch for a value: zod decides instead. */
const UNSURE = Symbol('unsure');
type Fast = (value: unknown) => string | typeof UNSURE;

type Def = {
  type: string;
  checks?: { _zod: { def: { check?: string; format?: string } } }[];
  format?: string;
  values?: unknown[];
  shape?: Record<string, $ZodType>;
  catchall?: $ZodType;
  innerType?: $ZodType;
  options?: $ZodType[];
  element?: $ZodType;
  keyType?: $ZodType;
  valueType?: $ZodType;
  mode?: string;
  partial?: boolean;
};
const defOf = (schema: $ZodType): Def => schema._zod.def as unknown as Def;

const isSafeIntFormat = (def: Def): boolean =>
  (def.format === undefined || def.format === 'safeint') &&
  (def.checks ?? []).every(
    (c) => c._zod.def.check === 'number_format' && c._zod.def.format === 'safeint',
  );

/**
 * A serializer for the plain shapes our responses use (objects that strip unknown keys, strings,
 * numbers, integers, booleans, literals, nullable, optional properties, unions, arrays, records
 * with plain string keys), which
 * checks each value as zod would and writes the JSON in the same pass. null when the schema has
 * anything else (a check, a transform, a record…): zod serializes those routes unchanged.
 */
export function compileFastSerializer(schema: $ZodType): Fast | null {
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      if (def.checks?.length || def.format !== undefined) return null;
      return (v) => (typeof v === 'string' ? JSON.stringify(v) : UNSURE);
    case 'number': {
      if (!def.checks?.length && def.format === undefined)
        return (v) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : UNSURE);
      if (!isSafeIntFormat(def)) return null;
      return (v) => (Number.isSafeInteger(v) ? String(v) : UNSURE);
    }
    case 'boolean':
      return (v) => (v === true ? 'true' : v === false ? 'false' : UNSURE);
    case 'literal': {
      const values = def.values ?? [];
      if (!values.every((x) => x === null || ['string', 'number', 'boolean'].includes(typeof x)))
        return null;
      return (v) => (values.includes(v) ? JSON.stringify(v) : UNSURE);
    }
    case 'nullable': {
      const inner = def.innerType && compileFastSerializer(def.innerType);
      if (!inner) return null;
      return (v) => (v === null ? 'null' : inner(v));
    }
    case 'union': {
      const options = (def.options ?? []).map(compileFastSerializer);
      if (options.length === 0 || options.some((o) => o === null)) return null;
      const fasts = options as Fast[];
      // zod answers with the first option that accepts the value.
      return (v) => {
        for (const f of fasts) {
          const out = f(v);
          if (out !== UNSURE) return out;
        }
        return UNSURE;
      };
    }
    case 'array': {
      if (def.checks?.length || !def.element) return null;
      const element = compileFastSerializer(def.element);
      if (!element) return null;
      return (v) => {
        if (!Array.isArray(v)) return UNSURE;
        const parts: string[] = [];
        for (const item of v) {
          const out = element(item);
          if (out === UNSURE) return UNSURE;
          parts.push(out);
        }
        return `[${parts.join(',')}]`;
      };
    }
    case 'object': {
      // Only zod's default: unknown keys are stripped (catchall, strict and loose differ).
      if (def.catchall !== undefined || def.checks?.length || !def.shape) return null;
      const props: { key: string; head: string; optional: boolean; fast: Fast }[] = [];
      for (const [key, prop] of Object.entries(def.shape)) {
        const pdef = defOf(prop);
        const optional = pdef.type === 'optional';
        const fast = compileFastSerializer(optional && pdef.innerType ? pdef.innerType : prop);
        if (!fast) return null;
        props.push({ key, head: `${JSON.stringify(key)}:`, optional, fast });
      }
      return (v) => {
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
    }
    case 'record': {
      // Only z.record(z.string(), …): a key schema with a check or a set of values, a loose or
      // partial record, are zod's to answer.
      const key = def.keyType && defOf(def.keyType);
      if (!key || key.type !== 'string' || key.checks?.length || key.format !== undefined)
        return null;
      if (def.checks?.length || def.mode !== undefined || def.partial || !def.valueType)
        return null;
      const value = compileFastSerializer(def.valueType);
      if (!value) return null;
      return (v) => {
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
    }
    default:
      return null;
  }
}

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
    given instanceof $ZodType
      ? given
      : typeof given === 'object' &&
          given !== null &&
          'properties' in given &&
          given.properties instanceof $ZodType
        ? given.properties
        : null;
  const fast = schema && compileFastSerializer(schema);
  if (!fast) return slow;
  return (data) => {
    const out = fast(data);
    return out === UNSURE ? slow(data) : out;
  };
};
