import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { basicAuth, numericId, sleep } from '../shared/http';
import {
  apiHash,
  decodeM,
  decrypt3des,
  encodeM,
  encrypt3des,
  fromSjis,
  jstStamp,
  parseJstStamp,
  toSjis,
} from './sbps.codec';
import { ERR } from './sbps.constants';
import { newSpsTransactionId, type SbpsContext } from './sbps.core';
import { ApiNg, custInfo, get, HANDLERS, type ApiOut, type ApiRequest } from './sbps.api-handlers';
import { declaredEncoding, leaves, parseXml, writeXml, XmlError, type XmlPairs } from './sbps.xml';

/** Multibyte ("M") elements: Base64 of Shift_JIS on the wire. */
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
/** Request elements sent 3DES + Base64 when `encrypted_flg=1` (contract §2). */
const ENC_REQUEST = new Set([
  'cc_number',
  'cc_expiration',
  'security_code',
  'dealings_type',
  'divide_times',
]);
/**
 * Response elements encrypted when the request said `encrypted_flg=1`, MG01-00101's statuses
 * included (sbpayment.rb InquireAuthorizationResponse::DECRYPT_PARAMETERS).
 */
const ENC_RESPONSE = new Set([
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

/** Elements each request must carry with a value, besides the common ones. */
const REQUIRED: Record<string, readonly string[]> = {
  'MG02-00131-101': ['cust_code', 'pay_option_manage.token', 'pay_option_manage.token_key'],
  'MG02-00132-101': ['cust_code', 'pay_option_manage.token', 'pay_option_manage.token_key'],
  'MG02-00104-101': ['cust_code'],
  'MG02-00103-101': ['cust_code'],
  // A token pair, or none (the customer's saved card).
  'ST01-00131-101': ['cust_code', 'order_id', 'amount'],
  'ST02-00101-101': ['tracking_id', 'processing_datetime'],
  'ST02-00201-101': ['tracking_id', 'processing_datetime'],
  'ST02-00303-101': ['tracking_id'],
  'MG01-00101-101': ['tracking_id'],
};
const COMMON_REQUIRED = ['merchant_id', 'service_id', 'request_date', 'sps_hashcode'];

const decodeBody = (body: unknown): string => {
  if (Buffer.isBuffer(body)) {
    const head = body.subarray(0, 200).toString('latin1');
    const enc = declaredEncoding(head);
    return enc && /^utf-?8$/i.test(enc) ? body.toString('utf8') : fromSjis(body);
  }
  return typeof body === 'string' ? body : '';
};

/** Reads the document into plaintext values: Base64 SJIS decoded, 3DES decrypted. */
const readRequest = ({ merchant }: SbpsContext, xml: string): ApiRequest => {
  const key = merchant.tripleDesKey;
  const iv = merchant.tripleDesIv;
  const root = parseXml(xml);
  if (root.name !== 'sps-api-request') throw new XmlError(`root is <${root.name}>`);
  const all = leaves(root);
  const encrypted = all.some(
    (l) => l.parent === '' && l.el.name === 'encrypted_flg' && l.el.text.trim() === '1',
  );
  const values = new Map<string, string>();
  const present = new Set<string>();
  const hashValues: string[] = [];
  for (const { parent, el } of all) {
    const path = parent ? `${parent}.${el.name}` : el.name;
    let v = el.text;
    if (M_FIELDS.has(el.name)) v = decodeM(v);
    else if (encrypted && ENC_REQUEST.has(el.name)) {
      try {
        v = decrypt3des(v, key, iv);
      } catch {
        throw new ApiNg(ERR.value);
      }
    }
    present.add(path);
    if (!values.has(path)) values.set(path, v.trim());
    if (el.name !== 'sps_hashcode') hashValues.push(v);
  }
  return { id: root.attrs.id ?? '', values, present, hashValues, encrypted };
};

const respond = (
  { rt, merchant }: SbpsContext,
  reply: FastifyReply,
  id: string,
  encrypted: boolean,
  custInfo: boolean,
  out: ApiOut,
): FastifyReply => {
  const key = merchant.tripleDesKey;
  const iv = merchant.tripleDesIv;
  const now = jstStamp(rt.now());
  const protect = (pairs: XmlPairs): XmlPairs =>
    pairs.map(([k, v]) => [
      k,
      typeof v !== 'string'
        ? protect(v)
        : M_FIELDS.has(k)
          ? encodeM(v)
          : encrypted && ENC_RESPONSE.has(k)
            ? encrypt3des(v, key, iv)
            : v,
    ]);
  // A real NG answer is res_result, res_err_code and res_date only: no id attribute, no
  // transaction id, no process date (fixtures/sbps-exchanges/NG-ST01-00111.response.xml). A
  // refused duplicate order id also names the earlier tracking id (contract §2; UNCONFIRMED).
  if (!out.ok) {
    const ng: [string, string][] = [['res_result', 'NG']];
    if (out.trackingId) ng.push(['res_tracking_id', out.trackingId]);
    ng.push(['res_err_code', out.code ?? ERR.system], ['res_date', now]);
    const xml = writeXml('sps-api-response', {}, ng);
    return reply.code(200).type('text/xml; charset=Shift_JIS').send(toSjis(xml));
  }
  // In the recorded answers' order (fixtures/sbps-exchanges/*.response.xml).
  const body: [string, XmlPairs[number][1]][] = [
    ['res_result', 'OK'],
    ['res_sps_transaction_id', out.spsTransactionId ?? newSpsTransactionId()],
  ];
  if (out.status !== undefined) body.push(['res_status', out.status]);
  if (out.trackingId) body.push(['res_tracking_id', out.trackingId]);
  if (out.info) body.push(['res_pay_method_info', protect(out.info)]);
  // `sps_cust_info_return_flg=1`: SBPS's own customer and payment numbers (recorded answers).
  if (custInfo)
    body.push([
      'res_sps_info',
      [
        ['res_sps_cust_no', numericId(12)],
        ['res_sps_payment_no', '001'],
      ],
    ]);
  body.push(['res_process_date', out.processDate ?? now], ['res_err_code', ''], ['res_date', now]);
  const xml = writeXml('sps-api-response', { id }, body);
  return reply.code(200).type('text/xml; charset=Shift_JIS').send(toSjis(xml));
};

/** Faults answer as SBPS's front end would: an HTML error page with a 5xx, or a 401. */
const faultAnswer = async (
  { rt }: SbpsContext,
  req: FastifyRequest,
  reply: FastifyReply,
  accounts: string[],
): Promise<FastifyReply | null> => {
  for (const f of rt.faults.take('sbps', accounts, req)) {
    if (f.kind === 'slow') await sleep(f.delay_ms);
    else if (f.kind === 'expired_token')
      return reply
        .code(401)
        .header('www-authenticate', 'Basic realm="sps-api"')
        .type('text/html')
        .send('<html><body><h1>401 Unauthorized</h1></body></html>');
    else {
      const status = f.kind === 'rate_limit' ? 503 : f.status;
      if (f.kind === 'rate_limit') reply.header('retry-after', String(f.retry_after_seconds));
      return reply
        .code(status)
        .type('text/html')
        .send(
          `<html><body><h1>${status} ${status === 503 ? 'Service Unavailable' : 'Internal Server Error'}</h1></body></html>`,
        );
    }
  }
  return null;
};

/** The XML API (`POST /api/xmlapi.do`): card registration and payments (providers.md §5.5). */
export function registerApi(app: FastifyInstance, ctx: SbpsContext): void {
  const { rt, merchant } = ctx;

  app.post('/api/xmlapi.do', async (req, reply) => {
    const text = decodeBody(req.body);
    let parsed: ApiRequest | null = null;
    let early: ApiNg | null = null;
    try {
      parsed = readRequest(ctx, text);
    } catch (e) {
      early = e instanceof ApiNg ? e : new ApiNg(ERR.missing);
    }
    const accountKeys = parsed
      ? [
          `${get(parsed, 'merchant_id')}${get(parsed, 'service_id')}`,
          get(parsed, 'cust_code'),
          get(parsed, 'order_id'),
        ].filter(Boolean)
      : [];
    const faulted = await faultAnswer(ctx, req, reply, accountKeys);
    if (faulted) return faulted;

    const cred = basicAuth(req);
    if (!cred || cred.id !== merchant.basicId || cred.secret !== merchant.basicPassword)
      return reply
        .code(401)
        .header('www-authenticate', 'Basic realm="sps-api"')
        .type('text/html')
        .send('<html><body><h1>401 Unauthorized</h1></body></html>');

    const rootId = /<sps-api-request[^>]*\bid\s*=\s*["']([^"']*)["']/.exec(text)?.[1] ?? '';
    if (!parsed)
      return respond(ctx, reply, rootId, false, false, {
        ok: false,
        code: early?.code ?? ERR.missing,
      });
    const r = parsed;
    try {
      if (
        get(r, 'merchant_id') !== merchant.merchantId ||
        get(r, 'service_id') !== merchant.serviceId
      )
        throw new ApiNg(ERR.merchant);
      const handler = HANDLERS[r.id];
      if (!handler) throw new ApiNg(ERR.value);
      for (const p of [...COMMON_REQUIRED, ...(REQUIRED[r.id] ?? [])])
        if (get(r, p) === '') throw new ApiNg(ERR.missing);
      if (get(r, 'cust_code').length > 64 || get(r, 'order_id').length > 38)
        throw new ApiNg(ERR.length);
      if (apiHash(r.hashValues, merchant.hashKey) !== get(r, 'sps_hashcode').toLowerCase())
        throw new ApiNg(ERR.hash);
      const at = parseJstStamp(get(r, 'request_date'));
      const limitText = get(r, 'limit_second');
      const limit = /^\d{1,4}$/.test(limitText) ? Number(limitText) : 600;
      if (at === null || rt.now() > at + limit * 1000) throw new ApiNg(ERR.expired);
      return respond(ctx, reply, r.id, r.encrypted, custInfo(r), handler(ctx, r));
    } catch (e) {
      if (!(e instanceof ApiNg)) throw e;
      return respond(ctx, reply, r.id, r.encrypted, false, {
        ok: false,
        code: e.code,
        ...(e.trackingId ? { trackingId: e.trackingId } : {}),
      });
    }
  });
}
