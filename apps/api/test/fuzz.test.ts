import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, login, multipart, type TestApp } from './helpers';
import { startSandbox, type RunningSandbox } from './sandbox';

/**
 * A schema-driven fuzz of every operation (issue 22, "Done when"): the OpenAPI document the app
 * serves is read, and each operation is called CASES times with input made from its schemas,
 * valid-looking and then wrong in the ways clients get it wrong (types, bounds, formats, shapes,
 * sizes, encodings), signed in as the demo account its path is for, so the calls reach past
 * authentication. A fixed seed makes every run the same. What is asserted: no 5xx, and every
 * error in the envelope `{ status_code, message, errors }`.
 *
 * Multipart operations get well-formed multipart bodies (their fields from the summary); their
 * content type itself (a boundary-less one) is not fuzzed here: the upload parser is another
 * change's (issue 22, uploads).
 */
const SEED = 0x22_2026;
const CASES = 10;

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
};
type Param = { in: 'query' | 'path' | 'header'; name: string; required?: boolean; schema: Schema };
type Operation = {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Param[];
  requestBody?: { content: Record<string, { schema: Schema }> };
};
type Doc = { paths: Record<string, Record<string, Operation>> };

/** mulberry32: a small seeded generator, so the cases are the same on every run. */
const prng = (seed: number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
};

/** Values that have broken servers: every one is tried somewhere. */
const NASTY: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  2147483648,
  -2147483649,
  Number.MAX_SAFE_INTEGER + 2,
  1e308,
  '',
  ' ',
  '0',
  '-1',
  '0x2',
  '1e309',
  'NaN',
  'Infinity',
  'null',
  'true',
  'a'.repeat(5000),
  '9'.repeat(40),
  '2026-02-30 25:61:00',
  '9999-12-31 23:59:59',
  '0000-00-00',
  '../../../etc/passwd',
  '<script>alert(1)</script>',
  "'; drop table users; --",
  '%00',
  '\u0000',
  '\ud800',
  '𝕏😀',
  '=HYPERLINK("http://evil.example")',
  'http://169.254.169.254/latest/meta-data/',
  'javascript:alert(1)',
  [],
  [1, 2],
  ['a'],
  {},
  { a: 1 },
  { $gt: '' },
];

export type Fuzz = ReturnType<typeof fuzzer>;
const fuzzer = (rand: () => number, ids: { store: number; spare: readonly number[] }) => {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const nasty = () => pick(NASTY);
  const word = (n = int(1, 12)) =>
    Array.from({ length: n }, () =>
      pick('abcdefghijklmnopqrstuvwxyz0123456789あい店'.split('')),
    ).join('');

  const typeOf = (s: Schema): string | undefined =>
    Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') ?? s.type[0]) : s.type;

  /** A value the schema (roughly) accepts; ids are the signed-in store's, so checks pass. */
  const valid = (s: Schema, name = '', depth = 0): unknown => {
    if (s.const !== undefined) return s.const;
    if (s.enum) return pick(s.enum);
    const alts = s.anyOf ?? s.oneOf;
    if (alts?.length) return valid(pick(alts), name, depth);
    if (s.allOf?.length) return valid(s.allOf[0] as Schema, name, depth);
    if (/(^|_)id$|^id$|_ids?$/.test(name)) return rand() < 0.8 ? ids.store : pick(ids.spare);
    switch (typeOf(s)) {
      case 'integer':
      case 'number': {
        // Small numbers inside the bounds: pages, limits, options and prices alike.
        const lo = Math.max(s.minimum ?? 0, 0);
        const hi = Math.min(s.maximum ?? 10, lo + 10);
        return hi < lo ? (s.minimum ?? 0) : int(Math.ceil(lo), Math.floor(hi));
      }
      case 'boolean':
        return rand() < 0.5;
      case 'array': {
        const n = int(s.minItems ?? 0, Math.min(s.maxItems ?? 3, 3));
        return Array.from({ length: n }, () => valid(s.items ?? {}, name, depth + 1));
      }
      case 'object': {
        if (depth > 4) return {};
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(s.properties ?? {}))
          if (s.required?.includes(k) || rand() < 0.7) out[k] = valid(v, k, depth + 1);
        return out;
      }
      default: {
        const ascii = (n: number) =>
          Array.from({ length: n }, () => pick('abcdefghijklmnopqrstuvwxyz'.split(''))).join('');
        let text: string;
        if (s.format === 'email' || /email/.test(name)) text = `${ascii(8)}@example.com`;
        else if (/url|link/.test(name)) text = `https://${ascii(6)}.example/${ascii(4)}`;
        else if (/date/.test(name))
          text = pick(['2026-11-01', '2026-10-01', '2026-12-01 10:00:00']);
        else if (/phone/.test(name)) text = '0312345678';
        else if (/password/.test(name)) text = 'password-1234';
        else if (s.pattern && /\\d|\[0-9\]/.test(s.pattern)) text = String(int(1, 999));
        else text = word(int(Math.max(1, s.minLength ?? 1), Math.min(s.maxLength ?? 12, 24)));
        return text;
      }
    }
  };

  /** A value of the wrong type for the schema. */
  const wrongType = (s: Schema): unknown => {
    const t = typeOf(s);
    const options = NASTY.filter((v) =>
      t === 'string'
        ? typeof v !== 'string'
        : t === 'integer' || t === 'number'
          ? typeof v !== 'number'
          : t === 'array'
            ? !Array.isArray(v)
            : t === 'object'
              ? typeof v !== 'object' || v === null || Array.isArray(v)
              : true,
    );
    return pick(options);
  };

  /** The object a case sends: valid, then each case wrong in a way of its own. */
  const body = (s: Schema, kase: number): unknown => {
    const base = valid(s) as Record<string, unknown>;
    const keys = Object.keys(s.properties ?? {});
    switch (kase % CASES) {
      case 0:
        return base;
      case 1: {
        const out: Record<string, unknown> = {};
        for (const k of s.required ?? []) out[k] = valid(s.properties?.[k] ?? {}, k);
        return out;
      }
      case 2: {
        if (!keys.length) return base;
        const k = pick(keys);
        return { ...base, [k]: wrongType(s.properties?.[k] ?? {}) };
      }
      case 3:
        return Object.fromEntries(keys.map((k) => [k, nasty()]));
      case 4:
        return pick([[], 'text', 42, null, [base]]);
      case 5:
        return JSON.parse(
          `{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}},${JSON.stringify(base).slice(1)}`,
        ) as unknown;
      case 6: {
        if (!keys.length) return { [word()]: nasty() };
        const k = pick(keys);
        const { [k]: _drop, ...rest } = base;
        return rest;
      }
      case 7:
        return Object.fromEntries(keys.map((k) => [k, 'x'.repeat(int(256, 20000))]));
      case 8:
        return { ...base, ...Object.fromEntries(keys.slice(0, 2).map((k) => [k, nasty()])) };
      default:
        return Object.fromEntries(keys.map((k) => [k, wrongType(s.properties?.[k] ?? {})]));
    }
  };

  /** A query or path value: valid on the first cases, then nasty. */
  const param = (p: Param, kase: number): unknown => {
    if (kase % CASES === 0 || (kase % CASES === 1 && rand() < 0.5)) return valid(p.schema, p.name);
    return rand() < 0.3 ? wrongType(p.schema) : nasty();
  };
  return { body, param, valid, nasty, pick, rand, word };
};

/** A path segment; a lone surrogate goes as the bytes it would be (not UTF-8 a server can read). */
const pathText = (s: string): string => {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80';
  }
};

const asText = (v: unknown): string =>
  typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v);

/** The demo account an operation's path is for, so the call gets past authentication and role. */
const accountFor = (path: string): string =>
  path.startsWith('/api/admin/')
    ? 'manager@tenpo.example'
    : path.startsWith('/api/agency/')
      ? 'agency@tenpo.example'
      : path.startsWith('/api/group-leader/')
        ? 'leader@tenpo.example'
        : 'shop@tenpo.example';

/** The fields of a multipart operation, as its summary lists them ("multipart: a, b, c"). */
const multipartFields = (op: Operation): string[] => {
  const text = `${op.summary ?? ''} ${op.description ?? ''}`;
  const m = /multipart:([^)]*)/.exec(text);
  if (!m) return [];
  return [
    ...new Set(
      (m[1] ?? '')
        .split(/[,;]/)
        .map((x) => /[a-zA-Z_]+(\[n\])?/.exec(x.trim())?.[0] ?? '')
        .filter((x) => x && !['and', 'as', 'files', 'the', 'or'].includes(x))
        .map((x) => x.replace('[n]', '[0]')),
    ),
  ];
};

let sb: RunningSandbox;
let t: TestApp;
let doc: Doc;

beforeAll(async () => {
  sb = await startSandbox();
  // No worker in this process: /api/health answers 200, not its by-design 503 "degraded".
  t = await buildTestApp({ SANDBOX_URL: sb.url, TENPO_WORKER: 'false' });
  doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as Doc;
});
afterAll(async () => {
  await t?.close();
  await sb?.close();
});

describe('schema-driven fuzz of every operation', () => {
  it("the router's own refusals are in the envelope too (what the fuzz found first)", async () => {
    const token = await login(t.app, 'manager@tenpo.example');
    for (const [url, status] of [
      ['/api/admin/agencies/%ED%A0%80', 400],
      [`/api/admin/agencies/${'9'.repeat(200)}`, 414],
    ] as const) {
      const res = await call(t.app, { method: 'GET', url, token });
      expect([url, res.statusCode]).toEqual([url, status]);
      expect(res.json()).toEqual({ status_code: status, message: expect.any(String), errors: {} });
    }
  });

  it(
    `${CASES} cases an operation: no 5xx, every error in the envelope`,
    { timeout: 180_000 },
    async () => {
      const rand = prng(SEED);
      const users = await t.database.db.selectFrom('users').select(['id', 'email']).execute();
      const idOf = (email: string) => users.find((u) => u.email === email)?.id ?? 1;
      // Other rows' ids, never the accounts the fuzz signs in as (a manager's valid PUT would
      // change their e-mail and password, and the rest of the run would be signed out).
      const signers = [
        'manager@tenpo.example',
        'agency@tenpo.example',
        'leader@tenpo.example',
        'shop@tenpo.example',
      ];
      const spare = users.filter((u) => !signers.includes(u.email)).map((u) => u.id);
      const tokens = new Map<string, string>();
      // What a fuzzed call may change of a signed-in account (its e-mail and password through the
      // account settings, its status through the admin), put back before signing in again.
      const originals = await t.database.db
        .selectFrom('users')
        .select(['id', 'email', 'password_hash', 'status'])
        .where('email', 'in', signers)
        .execute();
      const restore = async () => {
        for (const u of originals)
          await t.database.db
            .updateTable('users')
            .set({ email: u.email, password_hash: u.password_hash, status: u.status })
            .where('id', '=', u.id)
            .execute();
      };
      const tokenFor = async (email: string) => {
        let tok = tokens.get(email);
        if (!tok) {
          tok = await login(t.app, email).catch(async () => {
            await restore();
            return login(t.app, email).catch(() => '');
          });
          tokens.set(email, tok);
        }
        return tok;
      };
      // Calls that end or change the session last, so the others run signed in.
      const ops = Object.entries(doc.paths)
        .flatMap(([path, byMethod]) =>
          Object.entries(byMethod).map(([method, op]) => ({
            path,
            method: method.toUpperCase(),
            op,
          })),
        )
        .sort((a, b) => {
          const late = (o: { method: string; path: string }) =>
            o.method === 'DELETE' || /logout|refresh-token|password/.test(o.path) ? 1 : 0;
          return late(a) - late(b);
        });
      const failures: string[] = [];
      let calls = 0;
      for (const { path, method, op } of ops) {
        const email = accountFor(path);
        const f = fuzzer(rand, { store: idOf(email), spare });
        const params = op.parameters ?? [];
        const json = op.requestBody?.content['application/json']?.schema;
        const fields = multipartFields(op);
        for (let kase = 0; kase < CASES; kase++) {
          let url = path;
          for (const p of params.filter((x) => x.in === 'path'))
            url = url.replace(`{${p.name}}`, pathText(asText(f.param(p, kase)) || 'x'));
          const q = new URLSearchParams();
          for (const p of params.filter((x) => x.in === 'query')) {
            if (!p.required && kase % CASES !== 0 && f.rand() < 0.3) continue;
            const v = f.param(p, kase);
            if (Array.isArray(v) && f.rand() < 0.5) for (const x of v) q.append(p.name, asText(x));
            else q.append(p.name, asText(v));
          }
          if (kase % CASES === 9) q.append(f.word(), f.word());
          const qs = q.toString();
          const fullUrl = qs ? `${url}?${qs}` : url;
          let payload: Record<string, unknown> = {};
          if (json) {
            const b = json ? f.body(json, kase) : undefined;
            payload =
              kase % CASES === 4 && f.rand() < 0.4
                ? {
                    payload: pick(f, ['{"a":', '{"a":1}}', '\u0000', 'not json', '[{]']),
                    headers: { 'content-type': 'application/json' },
                  }
                : { payload: b as object };
          } else if (fields.length) {
            const values: Record<string, string> = {};
            for (const name of fields)
              if (kase % CASES === 0 || f.rand() < 0.7)
                values[name] =
                  kase % CASES === 0 && /user_id/.test(name)
                    ? String(idOf(email))
                    : asText(kase % CASES === 0 ? f.valid({ type: 'string' }, name) : f.nasty());
            payload = { ...multipart(values) };
          } else if (['POST', 'PUT', 'PATCH'].includes(method) && kase % CASES >= 5) {
            payload = { payload: { [f.word()]: f.nasty() } as object };
          }
          const token = await tokenFor(email);
          const res = await call(t.app, {
            method: method as 'GET',
            url: fullUrl,
            token,
            ...payload,
          });
          calls++;
          const where = `${method} ${fullUrl.slice(0, 160)} #${kase}`;
          if (res.statusCode >= 500)
            failures.push(`${where} → ${res.statusCode} ${res.body.slice(0, 200)}`);
          else if (res.statusCode >= 400) {
            let body: unknown;
            try {
              body = res.json();
            } catch {
              body = res.body;
            }
            const e = body as { status_code?: unknown; message?: unknown; errors?: unknown };
            if (
              typeof e !== 'object' ||
              e === null ||
              e.status_code !== res.statusCode ||
              typeof e.message !== 'string' ||
              typeof e.errors !== 'object' ||
              e.errors === null
            )
              failures.push(
                `${where} → ${res.statusCode} not the envelope: ${res.body.slice(0, 200)}`,
              );
          }
          // A session a call ended (logout, a password change, a deleted store) is made again.
          if (res.statusCode === 401 && !path.startsWith('/api/payment/sbps')) tokens.delete(email);
        }
      }
      expect(calls).toBeGreaterThanOrEqual(ops.length * CASES);
      expect(failures).toEqual([]);
    },
  );
});

const pick = <T>(f: Fuzz, xs: readonly T[]): T => f.pick(xs);
