import { monthFiguresSchema, multiStoreReportSchema } from '@tenpo/domain';
import { serializerCompiler } from '../../lib/serializer';

/**
 * The multi-store report's answer written straight into bytes (issue 26, ADR 0097). Its JSON is
 * a row of eleven figures a store: 367 KB for 1,000 stores. The app's serializer (ADR 0016)
 * builds it as a string of some 25,000 pieces, and turning that string into the bytes Node
 * writes (flattening it, then UTF-8) cost five to eight times the serializing itself. Here the
 * same JSON goes into one Buffer: names through JSON.stringify and a UTF-8 write, numbers digit
 * by digit, keys as bytes made once. Anything this writer does not vouch for (a value of another
 * type, a record that is not a plain object…) goes to the app's serializer, which checks it
 * with zod as every other route does; `reports.bytes.test.ts` holds the two to the same bytes.
 */

type Serializer = (data: unknown) => string;

/** The figures' keys, in the order the response schema (and so the app's serializer) writes them. */
const FIELDS = Object.keys(monthFiguresSchema.shape);
const bytesOf = (s: string): Buffer => Buffer.from(s, 'latin1');
const OPEN_FIGURES = FIELDS.map((f, i) => bytesOf(`${i === 0 ? '{' : ','}${JSON.stringify(f)}:`));
/** The most bytes a store's figures take besides its name: keys, 11 numbers of ≤ 24 characters. */
const FIGURES_MAX = OPEN_FIGURES.reduce((n, b) => n + b.length, 0) + FIELDS.length * 24 + 8;

/** The answer's shape as this writer knows it; if the schema ever differs, the app's serializer answers. */
const knownShape =
  Object.keys(multiStoreReportSchema.shape).join() === 'start_date,end_date,stores,not_linked' &&
  FIELDS.length === 11;

type Plain = Record<string, unknown>;
const isObject = (v: unknown): v is Plain =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A growing Buffer of the answer's bytes. `fail` once a value is not one this writer vouches for. */
class Writer {
  buf: Buffer;
  off = 0;
  fail = false;

  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
  }

  room(n: number): void {
    if (this.off + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.off + n));
    this.buf.copy(next, 0, 0, this.off);
    this.buf = next;
  }

  /** Bytes made once (keys, punctuation). */
  raw(b: Buffer): void {
    this.room(b.length);
    for (let i = 0; i < b.length; i++) this.buf[this.off++] = b[i] as number;
  }

  /** A string as JSON (z.string()). */
  text(v: unknown): void {
    if (typeof v !== 'string') {
      this.fail = true;
      return;
    }
    const json = JSON.stringify(v);
    this.room(json.length * 3);
    this.off += this.buf.write(json, this.off, 'utf8');
  }

  /** A number as String(v) writes it: z.number() (finite), or z.number().int() (safe integer). */
  number(v: unknown, int: boolean): void {
    if (typeof v !== 'number' || !Number.isFinite(v) || (int && !Number.isSafeInteger(v))) {
      this.fail = true;
      return;
    }
    this.room(24);
    if (!Number.isSafeInteger(v)) {
      const s = String(v);
      for (let i = 0; i < s.length; i++) this.buf[this.off++] = s.charCodeAt(i);
      return;
    }
    let n = v;
    if (n < 0) {
      this.buf[this.off++] = 45; // '-'
      n = -n;
    }
    const start = this.off;
    do {
      this.buf[this.off++] = 48 + (n % 10);
      n = Math.floor(n / 10);
    } while (n > 0);
    // The digits went in backwards.
    for (let a = start, b = this.off - 1; a < b; a++, b--) {
      const x = this.buf[a] as number;
      this.buf[a] = this.buf[b] as number;
      this.buf[b] = x;
    }
  }
}

const B = {
  head: bytesOf('{"status_code":'),
  message: bytesOf(',"message":'),
  data: bytesOf(',"data":{"data":{"start_date":'),
  end: bytesOf(',"end_date":'),
  stores: bytesOf(',"stores":{'),
  colon: bytesOf(':'),
  comma: bytesOf(','),
  close: bytesOf('}'),
  notLinked: bytesOf('},"not_linked":['),
  id: bytesOf('{"id":'),
  name: bytesOf(',"name":'),
  tail: bytesOf(']}}}'),
};

/** The stores' record as zod's record and the app's serializer read it: plain objects only. */
const plainRecord = (v: unknown): v is Plain => {
  if (typeof v !== 'object' || v === null) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return (
    (proto === Object.prototype || proto === null) && Object.getOwnPropertySymbols(v).length === 0
  );
};

function writeStores(w: Writer, stores: Plain): void {
  let first = true;
  for (const key of Object.keys(stores)) {
    // zod copies a record's own keys but drops __proto__; so does the app's serializer.
    if (key === '__proto__') continue;
    const f = stores[key];
    if (!isObject(f)) {
      w.fail = true;
      return;
    }
    w.room(FIGURES_MAX);
    if (!first) w.raw(B.comma);
    first = false;
    w.text(key);
    w.raw(B.colon);
    for (let i = 0; i < FIELDS.length; i++) {
      w.raw(OPEN_FIGURES[i] as Buffer);
      w.number(f[FIELDS[i] as string], false);
    }
    w.raw(B.close);
    if (w.fail) return;
  }
}

/** The answer `{ status_code, message?, data: { data: MultiStoreReport } }` as bytes, or null. */
export function writeMultiStoreReport(answer: unknown): Buffer | null {
  if (!isObject(answer) || !isObject(answer.data) || !isObject(answer.data.data)) return null;
  const report = answer.data.data;
  const { stores, not_linked: notLinked } = report;
  if (!plainRecord(stores) || !Array.isArray(notLinked)) return null;
  const w = new Writer(Object.keys(stores).length * (FIGURES_MAX + 64) + 1024);
  w.raw(B.head);
  w.number(answer.status_code, true);
  if (answer.message !== undefined) {
    w.raw(B.message);
    w.text(answer.message);
  }
  w.raw(B.data);
  w.text(report.start_date);
  w.raw(B.end);
  w.text(report.end_date);
  w.raw(B.stores);
  writeStores(w, stores);
  w.raw(B.notLinked);
  notLinked.forEach((s: unknown, i) => {
    if (!isObject(s)) {
      w.fail = true;
      return;
    }
    if (i > 0) w.raw(B.comma);
    w.raw(B.id);
    w.number(s.id, true);
    w.raw(B.name);
    w.text(s.name);
    w.raw(B.close);
  });
  w.raw(B.tail);
  return w.fail ? null : w.buf.subarray(0, w.off);
}

/**
 * The serializer compiler of POST /report/multiple-store/adjustment-period: the bytes above, or
 * the app's serializer's JSON (zod's check and error included) as bytes when they cannot vouch.
 * Fastify sends a Buffer as it is: no second copy behind the status line, no encoding on the way.
 */
export const multiStoreReportBytes: typeof serializerCompiler = (route) => {
  const serialize = serializerCompiler(route) as Serializer;
  const slow = (data: unknown) => Buffer.from(serialize(data));
  const fast = (data: unknown) => writeMultiStoreReport(data) ?? slow(data);
  // Typed as the compiler's string; Fastify takes a Buffer payload from a serializer as it is.
  return (knownShape ? fast : slow) as unknown as Serializer;
};
