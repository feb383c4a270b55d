import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import iconv from 'iconv-lite';

/** SBPS speaks Shift_JIS on every wire (reference/providers.md §5.2, §5.5). */
export const SJIS = 'Shift_JIS';

export const toSjis = (s: string): Buffer => iconv.encode(s, SJIS);
export const fromSjis = (b: Buffer): string => iconv.decode(b, SJIS);

const JST_OFFSET_MS = 9 * 3600_000;

/** `YYYYMMDDHHMMSS` in Asia/Tokyo (no daylight saving, so a fixed +9 h is exact). */
export function jstStamp(ms: number): string {
  const d = new Date(ms + JST_OFFSET_MS);
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${p(d.getUTCFullYear(), 4)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
}

/** The instant of a JST `YYYYMMDDHHMMSS`, or null when it is not one. */
export function parseJstStamp(s: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(s);
  if (!m) return null;
  const [y, mo, d, h, mi, se] = m.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ms = Date.UTC(y, mo - 1, d, h, mi, se);
  const back = new Date(ms);
  // Date.UTC rolls 20261332 over into the next year: a real stamp survives the round trip.
  if (back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || se > 59)
    return null;
  return ms - JST_OFFSET_MS;
}

export const sha1Hex = (bytes: Buffer): string => createHash('sha1').update(bytes).digest('hex');

/**
 * Link-type hash (A01-1, A02-1, A03-1): SHA-1 of the trimmed values in definition order + hash
 * key. The values are hashed as UTF-8 bytes of the decoded strings, as sbpayment.rb does
 * (contract §2; providers.md §5.2 notes the conflict for non-ASCII values).
 */
export function linkHash(
  order: readonly string[],
  fields: Readonly<Record<string, string | undefined>>,
  hashKey: string,
): string {
  const concat = order
    .filter((k) => k !== 'sps_hashcode')
    .map((k) => (fields[k] ?? '').trim())
    .join('');
  return sha1Hex(Buffer.from(concat + hashKey, 'utf8'));
}

/** XML API hash: the plaintext values in document order, as Shift_JIS bytes, + hash key. */
export function apiHash(values: readonly string[], hashKey: string): string {
  return sha1Hex(toSjis(values.map((v) => v.trim()).join('') + hashKey));
}

/** Multibyte ("M") fields travel as Base64 of their Shift_JIS bytes. */
export const encodeM = (s: string): string => (s === '' ? '' : toSjis(s).toString('base64'));
export const decodeM = (s: string): string =>
  s.trim() === '' ? '' : fromSjis(Buffer.from(s.trim(), 'base64'));

/**
 * `encrypted_flg=1`: 3DES-CBC with the merchant's key and IV, the Shift_JIS plaintext padded
 * with spaces to a multiple of 8 (no PKCS padding), then Base64.
 */
export function encrypt3des(plain: string, key: string, iv: string): string {
  if (plain === '') return '';
  const bytes = toSjis(plain);
  const padded = Buffer.alloc(Math.ceil(bytes.length / 8) * 8, 0x20);
  bytes.copy(padded);
  const c = createCipheriv('des-ede3-cbc', Buffer.from(key, 'latin1'), Buffer.from(iv, 'latin1'));
  c.setAutoPadding(false);
  return Buffer.concat([c.update(padded), c.final()]).toString('base64');
}

/** The inverse of encrypt3des; throws when the Base64 is not whole 8-byte blocks. */
export function decrypt3des(b64: string, key: string, iv: string): string {
  if (b64.trim() === '') return '';
  const d = createDecipheriv('des-ede3-cbc', Buffer.from(key, 'latin1'), Buffer.from(iv, 'latin1'));
  d.setAutoPadding(false);
  const plain = Buffer.concat([d.update(Buffer.from(b64.trim(), 'base64')), d.final()]);
  return fromSjis(plain).replace(/ +$/, '');
}

/**
 * Decodes an `application/x-www-form-urlencoded` body whose escapes stand for Shift_JIS bytes:
 * `%83%65` is テ, not two Latin-1 characters. The first value of a repeated key wins.
 */
export function parseSjisForm(body: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  const unescape = (part: Buffer): string => {
    const bytes: number[] = [];
    for (let i = 0; i < part.length; i++) {
      const c = part[i] as number;
      if (c === 0x2b) bytes.push(0x20);
      else if (c === 0x25 && i + 2 < part.length) {
        const hex = String.fromCharCode(part[i + 1] as number, part[i + 2] as number);
        if (/^[0-9a-f]{2}$/i.test(hex)) {
          bytes.push(parseInt(hex, 16));
          i += 2;
        } else bytes.push(c);
      } else bytes.push(c);
    }
    return fromSjis(Buffer.from(bytes));
  };
  let start = 0;
  while (start <= body.length) {
    let end = body.indexOf(0x26, start);
    if (end < 0) end = body.length;
    const pair = body.subarray(start, end);
    if (pair.length > 0) {
      const eq = pair.indexOf(0x3d);
      const key = unescape(eq < 0 ? pair : pair.subarray(0, eq));
      const value = eq < 0 ? '' : unescape(pair.subarray(eq + 1));
      if (!(key in out)) out[key] = value;
    }
    start = end + 1;
  }
  return out;
}

/** A form body with every value percent-encoded as Shift_JIS bytes (what SBPS POSTs). */
export function sjisForm(fields: readonly (readonly [string, string])[]): string {
  const enc = (s: string): string => {
    let out = '';
    for (const b of toSjis(s)) {
      const ch = String.fromCharCode(b);
      if (/[A-Za-z0-9*\-._]/.test(ch)) out += ch;
      else if (b === 0x20) out += '+';
      else out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    }
    return out;
  };
  return fields.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
}
