import { createCipheriv, createDecipheriv, createHash, timingSafeEqual } from 'node:crypto';
import { formatTokyo } from '@tenpo/domain';
import iconv from 'iconv-lite';

/**
 * SB Payment Service's wire formats (providers.md §5, payments contract §1–§2), pure: the
 * link-type purchase request (A01-1) and its result (A02-1 / A03-1) with their SHA-1
 * `sps_hashcode`, and the XML API's requests and responses (Shift_JIS, Base64 of Shift_JIS for
 * multibyte "M" fields, 3DES-CBC for card fields when `encrypted_flg=1`). The I/O is in
 * sbps.client.ts.
 */

export const SJIS = 'Shift_JIS';
export const sjis = (s: string): Buffer => iconv.encode(s, SJIS);
export const fromSjis = (b: Buffer): string => iconv.decode(b, SJIS);

const sha1Hex = (b: Buffer): string => createHash('sha1').update(b).digest('hex');

/** `YYYYMMDDHHMMSS` in Asia/Tokyo. */
export const sbpsDate = (d: Date): string => formatTokyo(d, 'YYYYMMDDHHmmss');

/** The purchase's own fields, which A01-1 and A02-1/A03-1 begin with in the same order. */
const ORDER_FIELDS = [
  'pay_method',
  'merchant_id',
  'service_id',
  'cust_code',
  'sps_cust_no',
  'sps_payment_no',
  'order_id',
  'item_id',
  'pay_item_id',
  'item_name',
  'tax',
  'amount',
  'pay_type',
  'auto_charge_type',
  'service_type',
  'div_settele',
  'last_charge_month',
  'camp_type',
  'tracking_id',
  'terminal_type',
] as const;

/** A01-1's fields in definition order, which is also the hash order (sbpayment.rb). */
export const PURCHASE_FIELDS = [
  ...ORDER_FIELDS,
  'success_url',
  'cancel_url',
  'error_url',
  'pagecon_url',
  'free1',
  'free2',
  'free3',
  'free_csv',
  'request_date',
  'limit_second',
] as const;
export type PurchaseField = (typeof PURCHASE_FIELDS)[number];

/** A02-1 (notification) and A03-1 (browser return) fields, in hash order. */
export const RESULT_FIELDS = [
  ...ORDER_FIELDS,
  'free1',
  'free2',
  'free3',
  'request_date',
  'res_pay_method',
  'res_result',
  'res_tracking_id',
  'res_sps_cust_no',
  'res_sps_payment_no',
  'res_payinfo_key',
  'res_payment_date',
  'res_err_code',
  'res_date',
  'limit_second',
] as const;

/**
 * The link type's hash: SHA-1 of the trimmed values in order + the hash key, as UTF-8 bytes
 * (sbpayment.rb; Tenpo keeps every hashed link-type value ASCII, where UTF-8 and Shift_JIS agree).
 */
export const linkHash = (values: readonly string[], hashKey: string): string =>
  sha1Hex(Buffer.from(values.map((v) => v.trim()).join('') + hashKey, 'utf8'));

/** The A01-1 form, every field present (empty when unset), `sps_hashcode` last. */
export function purchaseFields(
  values: Partial<Record<PurchaseField, string>>,
  hashKey: string,
): { name: string; value: string }[] {
  const fields = PURCHASE_FIELDS.map((name) => ({ name, value: values[name] ?? '' }));
  const hash = linkHash(
    fields.map((f) => f.value),
    hashKey,
  );
  return [...fields, { name: 'sps_hashcode', value: hash }];
}

const sameHex = (a: string, b: string): boolean => {
  const x = Buffer.from(a.toLowerCase());
  const y = Buffer.from(b.toLowerCase());
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Does an A02-1 / A03-1's `sps_hashcode` match its fields? Absent fields count as "". */
export const resultHashOk = (fields: Record<string, string>, hashKey: string): boolean => {
  const given = fields.sps_hashcode ?? '';
  if (!/^[0-9a-f]{40}$/i.test(given)) return false;
  return sameHex(
    given,
    linkHash(
      RESULT_FIELDS.map((k) => fields[k] ?? ''),
      hashKey,
    ),
  );
};

/** A Shift_JIS `application/x-www-form-urlencoded` body: %XX are Shift_JIS bytes, `+` a space. */
export function parseSjisForm(body: Buffer | string): Record<string, string> {
  const text = typeof body === 'string' ? body : body.toString('latin1');
  const out: Record<string, string> = {};
  const decode = (s: string): string => {
    const bytes: number[] = [];
    for (let i = 0; i < s.length; i++) {
      const c = s[i] as string;
      if (c === '+') bytes.push(0x20);
      else if (c === '%' && /^[0-9a-f]{2}$/i.test(s.slice(i + 1, i + 3))) {
        bytes.push(Number.parseInt(s.slice(i + 1, i + 3), 16));
        i += 2;
      } else bytes.push(c.charCodeAt(0) & 0xff);
    }
    return fromSjis(Buffer.from(bytes));
  };
  for (const pair of text.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const k = decode(eq < 0 ? pair : pair.slice(0, eq));
    if (!(k in out)) out[k] = eq < 0 ? '' : decode(pair.slice(eq + 1));
  }
  return out;
}

/** The XML API's 3DES-CBC: space-padded to 8 bytes, no PKCS padding, then Base64. */
export type DesKeys = { key: string; iv: string };
export const desEncrypt = (plain: string, k: DesKeys): string => {
  const b = sjis(plain);
  const padded = Buffer.concat([b, Buffer.alloc((8 - (b.length % 8)) % 8, 0x20)]);
  const c = createCipheriv(
    'des-ede3-cbc',
    Buffer.from(k.key, 'latin1'),
    Buffer.from(k.iv, 'latin1'),
  );
  c.setAutoPadding(false);
  return Buffer.concat([c.update(padded), c.final()]).toString('base64');
};
export const desDecrypt = (b64: string, k: DesKeys): string => {
  const data = Buffer.from(b64, 'base64');
  if (data.length === 0 || data.length % 8 !== 0) throw new Error('3DES: not a whole block');
  const d = createDecipheriv(
    'des-ede3-cbc',
    Buffer.from(k.key, 'latin1'),
    Buffer.from(k.iv, 'latin1'),
  );
  d.setAutoPadding(false);
  return fromSjis(Buffer.concat([d.update(data), d.final()])).replace(/ +$/, '');
};

/** "M" fields travel as Base64 of Shift_JIS. */
const M_FIELDS = new Set([
  'item_name',
  'free1',
  'free2',
  'free3',
  'dtl_item_name',
  'resrv1',
  'resrv2',
  'resrv3',
]);
/** Request fields sent 3DES-encrypted when `encrypted_flg=1` (payments contract §2). */
const ENCRYPTED_REQUEST = new Set([
  'cc_number',
  'cc_expiration',
  'security_code',
  'dealings_type',
  'divide_times',
]);
/**
 * Response fields that come 3DES-encrypted when the request had `encrypted_flg=1`: the card
 * fields, and MG01-00101's `commit_status` / `payment_status` (sbpayment.rb
 * InquireAuthorizationResponse::DECRYPT_PARAMETERS; vogle CardTranLookupMethodInfo `@CipherString`).
 */
const ENCRYPTED_RESPONSE = new Set([
  'cc_number',
  'cc_expiration',
  'cardbrand_code',
  'cc_company_code',
  'recognized_no',
  'commit_status',
  'payment_status',
  'dealings_type',
  'divide_times',
]);

/** An XML API request body: elements in document order; a nested group is a list of its own. */
export type XmlElement = readonly [name: string, value: string | readonly XmlElement[]];

const leaves = (els: readonly XmlElement[]): [string, string][] =>
  els.flatMap(([name, v]) => (typeof v === 'string' ? [[name, v] as [string, string]] : leaves(v)));

/**
 * The API hash: SHA-1 over the Shift_JIS bytes of every element's trimmed plaintext value in
 * document order (nested included, `sps_hashcode` excluded) + the hash key.
 */
export const apiHash = (elements: readonly XmlElement[], hashKey: string): string =>
  sha1Hex(
    sjis(
      leaves(elements)
        .filter(([name]) => name !== 'sps_hashcode')
        .map(([, v]) => v.trim())
        .join('') + hashKey,
    ),
  );

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The request document, Shift_JIS-encoded: the hash (over plaintext) appended as
 * `sps_hashcode`, M fields Base64, card fields 3DES when `encrypted_flg` is 1. Empty values
 * stay empty on the wire.
 */
export function apiRequest(
  id: string,
  elements: readonly XmlElement[],
  keys: { hashKey: string } & DesKeys,
): Buffer {
  const encrypted = leaves(elements).some(([n, v]) => n === 'encrypted_flg' && v === '1');
  const wire = (name: string, v: string): string => {
    if (v === '') return '';
    if (encrypted && ENCRYPTED_REQUEST.has(name)) return desEncrypt(v, keys);
    if (M_FIELDS.has(name)) return sjis(v).toString('base64');
    return v;
  };
  const render = (els: readonly XmlElement[]): string =>
    els
      .map(([name, v]) =>
        typeof v === 'string'
          ? `<${name}>${esc(wire(name, v))}</${name}>`
          : `<${name}>${render(v)}</${name}>`,
      )
      .join('');
  const all: XmlElement[] = [...elements, ['sps_hashcode', apiHash(elements, keys.hashKey)]];
  return sjis(
    `<?xml version="1.0" encoding="Shift_JIS"?><sps-api-request id="${esc(id)}">${render(all)}</sps-api-request>`,
  );
}

/**
 * A parsed XML API response: top-level fields, and `res_pay_method_info`'s, decoded. A real NG
 * answer has no `id` attribute, transaction id or process date (recorded:
 * fixtures/sbps-exchanges/NG-ST01-00111.response.xml): those are '' then.
 */
export type ApiResponse = {
  id: string;
  result: 'OK' | 'NG';
  errCode: string;
  spsTransactionId: string;
  trackingId: string;
  processDate: string;
  payMethodInfo: Record<string, string>;
};

const unesc = (s: string): string =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** Children of an element's inner text: `<a>x</a><b><c>y</c></b>` → a: "x", b: "<c>y</c>". */
const children = (inner: string): Map<string, string> => {
  const out = new Map<string, string>();
  const re = /<([A-Za-z_][\w.-]*)\s*(\/>|>([\s\S]*?)<\/\1\s*>)/g;
  for (let m = re.exec(inner); m; m = re.exec(inner)) {
    if (!out.has(m[1] as string)) out.set(m[1] as string, m[3] ?? '');
  }
  return out;
};

export class SbpsProtocolError extends Error {}

/** Reads a response document (Shift_JIS); M fields and, when `encrypted`, card fields decoded. */
export function parseApiResponse(body: Buffer, encrypted: boolean, keys: DesKeys): ApiResponse {
  const text = fromSjis(body);
  const root =
    /<sps-api-response(?:\s+id\s*=\s*["']([^"']*)["'])?\s*>([\s\S]*)<\/sps-api-response\s*>/.exec(
      text,
    );
  if (!root) throw new SbpsProtocolError('SBPS: not an sps-api-response document');
  const top = children(root[2] as string);
  const field = (k: string) => unesc((top.get(k) ?? '').trim());
  const info: Record<string, string> = {};
  for (const [k, raw] of children(top.get('res_pay_method_info') ?? '')) {
    const v = unesc(raw.trim());
    if (v === '') info[k] = '';
    else if (encrypted && ENCRYPTED_RESPONSE.has(k)) info[k] = desDecrypt(v, keys);
    else if (M_FIELDS.has(k)) info[k] = fromSjis(Buffer.from(v, 'base64'));
    else info[k] = v;
  }
  const result = field('res_result');
  if (result !== 'OK' && result !== 'NG')
    throw new SbpsProtocolError(`SBPS: res_result is "${result}"`);
  return {
    id: root[1] ?? '',
    result,
    errCode: field('res_err_code'),
    spsTransactionId: field('res_sps_transaction_id'),
    trackingId: field('res_tracking_id'),
    processDate: field('res_process_date'),
    payMethodInfo: info,
  };
}
