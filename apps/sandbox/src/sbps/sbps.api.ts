import { randomBytes } from 'node:crypto';
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
import { cardOutcome, COMPANY_CODES, ERR, maskCard } from './sbps.constants';
import {
  charge,
  expired,
  findCustomer,
  newSpsTransactionId,
  orderHolder,
  saveCustomerCard,
  type SbpsContext,
} from './sbps.core';
import type { SbpsCard, SbpsTransaction } from './sbps.state';
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

/** A parsed request: plaintext values by `name` or `group.name`, and the hash input. */
type ApiRequest = {
  id: string;
  values: Map<string, string>;
  present: Set<string>;
  hashValues: string[];
  encrypted: boolean;
};

const get = (r: ApiRequest, path: string): string => r.values.get(path) ?? '';
const custInfo = (r: ApiRequest): boolean => get(r, 'sps_cust_info_return_flg') === '1';

class ApiNg extends Error {
  constructor(
    readonly code: string,
    readonly trackingId?: string,
  ) {
    super(`SBPS NG ${code}`);
  }
}

/** The XML API (`POST /api/xmlapi.do`): card registration and payments (providers.md §5.5). */
export function registerApi(app: FastifyInstance, ctx: SbpsContext): void {
  const { rt, store, merchant } = ctx;
  const key = merchant.tripleDesKey;
  const iv = merchant.tripleDesIv;

  const decodeBody = (body: unknown): string => {
    if (Buffer.isBuffer(body)) {
      const head = body.subarray(0, 200).toString('latin1');
      const enc = declaredEncoding(head);
      return enc && /^utf-?8$/i.test(enc) ? body.toString('utf8') : fromSjis(body);
    }
    return typeof body === 'string' ? body : '';
  };

  /** Reads the document into plaintext values: Base64 SJIS decoded, 3DES decrypted. */
  const read = (xml: string): ApiRequest => {
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
    reply: FastifyReply,
    id: string,
    encrypted: boolean,
    custInfo: boolean,
    out: {
      ok: boolean;
      code?: string;
      trackingId?: string;
      info?: XmlPairs;
      spsTransactionId?: string;
      processDate?: string;
      /** MG01-00101's top-level `res_status`. */
      status?: string;
    },
  ): FastifyReply => {
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
    body.push(
      ['res_process_date', out.processDate ?? now],
      ['res_err_code', ''],
      ['res_date', now],
    );
    const xml = writeXml('sps-api-response', { id }, body);
    return reply.code(200).type('text/xml; charset=Shift_JIS').send(toSjis(xml));
  };

  const takeToken = (r: ApiRequest): SbpsCard => {
    const token = get(r, 'pay_option_manage.token');
    const tokenKey = get(r, 'pay_option_manage.token_key');
    const t = store.data.tokens.find((x) => x.token === token);
    const valid =
      t &&
      t.tokenKey === tokenKey &&
      t.usedAt === null &&
      t.expiresAt > rt.now() &&
      t.merchantId === get(r, 'merchant_id') &&
      t.serviceId === get(r, 'service_id');
    // A presented token is spent even when the charge it pays for fails.
    if (t && t.usedAt === null && t.tokenKey === tokenKey) {
      t.usedAt = rt.now();
      store.save();
    }
    if (!valid || !t) throw new ApiNg(ERR.token);
    return t.card;
  };

  const cardInfo = (card: { brand: string; masked: string; expiration: string }): XmlPairs => [
    ['cc_number', card.masked],
    ['cc_expiration', card.expiration],
    ['cardbrand_code', card.brand],
  ];

  const txOf = (r: ApiRequest): SbpsTransaction => {
    const tx = store.data.transactions.find(
      (t) =>
        t.trackingId === get(r, 'tracking_id') &&
        t.merchantId === get(r, 'merchant_id') &&
        t.serviceId === get(r, 'service_id'),
    );
    if (!tx || tx.status === 'declined') throw new ApiNg(ERR.customer);
    return tx;
  };

  type Out = Parameters<typeof respond>[4];
  const handlers: Record<string, (r: ApiRequest) => Out> = {
    'MG02-00131-101': (r) => register(r, 'create'),
    'MG02-00132-101': (r) => register(r, 'update'),
    'MG02-00104-101': (r) => {
      const c = findCustomer(ctx, get(r, 'merchant_id'), get(r, 'service_id'), get(r, 'cust_code'));
      if (!c) throw new ApiNg(ERR.customer);
      return {
        ok: true,
        info: [
          ...cardInfo({
            brand: c.card.brand,
            masked: maskCard(c.card.number),
            expiration: c.card.expiration,
          }),
          ['resrv1', c.resrv[0]],
          ['resrv2', c.resrv[1]],
          ['resrv3', c.resrv[2]],
        ],
      };
    },
    'MG02-00103-101': (r) => {
      const c = findCustomer(ctx, get(r, 'merchant_id'), get(r, 'service_id'), get(r, 'cust_code'));
      if (!c) throw new ApiNg(ERR.customer);
      store.data.customers = store.data.customers.filter((x) => x !== c);
      store.save();
      return { ok: true };
    },
    // ST01-00111 (authorise with card data) is not served: removed from SBPS's API (vogle's
    // README; ADR 0058). It answers as any request id SBPS does not know.
    'ST01-00131-101': (r) => authorise(r),
    'ST02-00101-101': (r) => {
      const tx = txOf(r);
      if (tx.status !== 'authorised' || tx.committedAt !== undefined) throw new ApiNg(ERR.customer);
      const at = rt.now();
      tx.committedAt = at;
      tx.commitDate = jstStamp(at);
      tx.updatedAt = at;
      store.save();
      return { ok: true, processDate: tx.commitDate };
    },
    'ST02-00201-101': (r) => {
      const tx = txOf(r);
      if (tx.status !== 'authorised') throw new ApiNg(ERR.customer);
      // Sales take a committed authorisation only (ADR 0058).
      if (tx.committedAt === undefined) throw new ApiNg(ERR.notCommitted);
      const amount = get(r, 'pay_option_manage.amount');
      if (amount !== '') {
        const n = Number(amount);
        if (!/^\d+$/.test(amount) || n <= 0 || n > tx.amount) throw new ApiNg(ERR.value);
        tx.amount = n;
      }
      tx.status = 'sold';
      tx.soldAt = rt.now();
      tx.updatedAt = rt.now();
      store.save();
      return { ok: true };
    },
    'ST02-00303-101': (r) => {
      const tx = txOf(r);
      if (tx.status !== 'authorised' && tx.status !== 'sold') throw new ApiNg(ERR.customer);
      tx.status = 'refunded';
      tx.updatedAt = rt.now();
      store.save();
      return { ok: true, trackingId: tx.trackingId };
    },
    'MG01-00101-101': (r) => {
      const tx = txOf(r);
      // vogle PaymentStatus (1 authorised, 2 sold, 3 cancelled, 4 refunded) and CommitStatus
      // (0 none, 1 committed); a cancel leaves commit_status as it was (recorded: refund.yml).
      const sold = tx.soldAt !== undefined || (tx.channel === 'link' && tx.status !== 'authorised');
      const paymentStatus =
        tx.status === 'authorised'
          ? '1'
          : tx.status === 'sold'
            ? '2'
            : tx.status === 'refunded' && sold
              ? '4'
              : '3';
      const committed = tx.committedAt !== undefined || sold;
      return {
        // The inquiry's own transaction id and no tracking id, as recorded (MG01-00101).
        ok: true,
        status: '0',
        info: [
          [
            'res_pay_method_info_detail',
            [
              ['cc_number', tx.card.masked],
              ['cc_expiration', tx.card.expiration],
              ['dealings_type', '10'],
              ['divide_times', ''],
              ['bonus_details_times', ''],
            ],
          ],
          ['cc_company_code', COMPANY_CODES[tx.card.brand]],
          ['cardbrand_code', tx.card.brand],
          ['recognized_no', tx.recognizedNo],
          ['commit_status', committed ? '1' : '0'],
          ['payment_status', paymentStatus],
        ],
      };
    },
  };

  function register(r: ApiRequest, mode: 'create' | 'update'): Out {
    const m = get(r, 'merchant_id');
    const s = get(r, 'service_id');
    const code = get(r, 'cust_code');
    const existing = findCustomer(ctx, m, s, code);
    if (mode === 'create' ? existing : !existing) throw new ApiNg(ERR.customer);
    const card = takeToken(r);
    // The wrong-expiry test card (and a card whose month has passed) is refused at registration.
    if (expired(rt, card.expiration) || cardOutcome(card.number) === 'wrong')
      throw new ApiNg(ERR.wrongCard);
    saveCustomerCard(ctx, m, s, code, card, [
      get(r, 'pay_method_info.resrv1'),
      get(r, 'pay_method_info.resrv2'),
      get(r, 'pay_method_info.resrv3'),
    ]);
    return {
      ok: true,
      info: [
        ['cardbrand_code', card.brand],
        ['res_payinfo_key', randomBytes(16).toString('hex')],
      ],
    };
  }

  function authorise(r: ApiRequest): Out {
    const m = get(r, 'merchant_id');
    const s = get(r, 'service_id');
    const custCode = get(r, 'cust_code');
    const orderId = get(r, 'order_id');
    const amountText = get(r, 'amount');
    if (!/^\d+$/.test(amountText) || Number(amountText) <= 0) throw new ApiNg(ERR.value);
    const taxText = get(r, 'tax');
    if (taxText !== '' && !/^\d+$/.test(taxText)) throw new ApiNg(ERR.value);
    // A retry of a charge that went through finds it again instead of charging twice.
    const earlier = orderHolder(ctx, m, s, orderId);
    if (earlier) throw new ApiNg(ERR.duplicateOrder, earlier.trackingId);
    const token = get(r, 'pay_option_manage.token');
    const tokenKey = get(r, 'pay_option_manage.token_key');
    if ((token === '') !== (tokenKey === '')) throw new ApiNg(ERR.missing);
    // With a token pair: that card. Without: the customer's saved card (vogle BySavedCard).
    let card: SbpsCard;
    if (token) card = takeToken(r);
    else {
      const c = findCustomer(ctx, m, s, custCode);
      if (!c) throw new ApiNg(ERR.customer);
      card = c.card;
    }
    const tx = charge(ctx, {
      merchantId: m,
      serviceId: s,
      orderId,
      custCode,
      itemId: get(r, 'item_id'),
      itemName: get(r, 'item_name'),
      amount: Number(amountText),
      tax: taxText === '' ? 0 : Number(taxText),
      card,
      channel: 'api',
      settle: 'authorised',
    });
    if (tx.status === 'declined') throw new ApiNg(tx.errCode);
    if (get(r, 'pay_option_manage.cust_manage_flg') === '1')
      saveCustomerCard(ctx, m, s, custCode, card);
    return {
      ok: true,
      trackingId: tx.trackingId,
      spsTransactionId: tx.spsTransactionId,
      info: [
        ['cc_company_code', COMPANY_CODES[card.brand]],
        ['cardbrand_code', card.brand],
        ['recognized_no', tx.recognizedNo],
      ],
    };
  }

  /** Faults answer as SBPS's front end would: an HTML error page with a 5xx, or a 401. */
  const faultAnswer = async (
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

  app.post('/api/xmlapi.do', async (req, reply) => {
    const text = decodeBody(req.body);
    let parsed: ApiRequest | null = null;
    let early: ApiNg | null = null;
    try {
      parsed = read(text);
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
    const faulted = await faultAnswer(req, reply, accountKeys);
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
      return respond(reply, rootId, false, false, { ok: false, code: early?.code ?? ERR.missing });
    const r = parsed;
    try {
      if (
        get(r, 'merchant_id') !== merchant.merchantId ||
        get(r, 'service_id') !== merchant.serviceId
      )
        throw new ApiNg(ERR.merchant);
      const handler = handlers[r.id];
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
      return respond(reply, r.id, r.encrypted, custInfo(r), handler(r));
    } catch (e) {
      if (!(e instanceof ApiNg)) throw e;
      return respond(reply, r.id, r.encrypted, false, {
        ok: false,
        code: e.code,
        ...(e.trackingId ? { trackingId: e.trackingId } : {}),
      });
    }
  });
}
