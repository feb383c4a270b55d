// What the XML API's requests do once read and checked: card registration (MG02-*), payments
// (ST01-00131 authorise, ST02-* commit, sale, refund) and the inquiry (MG01-00101).
import { randomBytes } from 'node:crypto';
import { jstStamp } from './sbps.codec';
import { cardOutcome, COMPANY_CODES, ERR, maskCard } from './sbps.constants';
import {
  charge,
  expired,
  findCustomer,
  orderHolder,
  saveCustomerCard,
  type SbpsContext,
} from './sbps.core';
import type { SbpsCard, SbpsTransaction } from './sbps.state';
import type { XmlPairs } from './sbps.xml';

/** A parsed request: plaintext values by `name` or `group.name`, and the hash input. */
export type ApiRequest = {
  id: string;
  values: Map<string, string>;
  present: Set<string>;
  hashValues: string[];
  encrypted: boolean;
};

export const get = (r: ApiRequest, path: string): string => r.values.get(path) ?? '';
export const custInfo = (r: ApiRequest): boolean => get(r, 'sps_cust_info_return_flg') === '1';

export class ApiNg extends Error {
  constructor(
    readonly code: string,
    readonly trackingId?: string,
  ) {
    super(`SBPS NG ${code}`);
  }
}

/** What a request answers: OK with its elements, or NG with an error code. */
export type ApiOut = {
  ok: boolean;
  code?: string;
  trackingId?: string;
  info?: XmlPairs;
  spsTransactionId?: string;
  processDate?: string;
  /** MG01-00101's top-level `res_status`. */
  status?: string;
};

const takeToken = ({ rt, store }: SbpsContext, r: ApiRequest): SbpsCard => {
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

const txOf = ({ store }: SbpsContext, r: ApiRequest): SbpsTransaction => {
  const tx = store.data.transactions.find(
    (t) =>
      t.trackingId === get(r, 'tracking_id') &&
      t.merchantId === get(r, 'merchant_id') &&
      t.serviceId === get(r, 'service_id'),
  );
  if (!tx || tx.status === 'declined') throw new ApiNg(ERR.customer);
  return tx;
};

function register(ctx: SbpsContext, r: ApiRequest, mode: 'create' | 'update'): ApiOut {
  const { rt } = ctx;
  const m = get(r, 'merchant_id');
  const s = get(r, 'service_id');
  const code = get(r, 'cust_code');
  const existing = findCustomer(ctx, m, s, code);
  if (mode === 'create' ? existing : !existing) throw new ApiNg(ERR.customer);
  const card = takeToken(ctx, r);
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

/** MG02-00104: the customer's saved card (masked) and reserved fields. */
function showCustomer(ctx: SbpsContext, r: ApiRequest): ApiOut {
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
}

/** MG02-00103: forgets the customer and its card. */
function deleteCustomer(ctx: SbpsContext, r: ApiRequest): ApiOut {
  const { store } = ctx;
  const c = findCustomer(ctx, get(r, 'merchant_id'), get(r, 'service_id'), get(r, 'cust_code'));
  if (!c) throw new ApiNg(ERR.customer);
  store.data.customers = store.data.customers.filter((x) => x !== c);
  store.save();
  return { ok: true };
}

/** ST01-00131: authorises a charge on a token's card, or on the customer's saved card. */
function authorise(ctx: SbpsContext, r: ApiRequest): ApiOut {
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
  if (token) card = takeToken(ctx, r);
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

/** ST02-00101: commits an authorisation (once). */
function commit(ctx: SbpsContext, r: ApiRequest): ApiOut {
  const { rt, store } = ctx;
  const tx = txOf(ctx, r);
  if (tx.status !== 'authorised' || tx.committedAt !== undefined) throw new ApiNg(ERR.customer);
  const at = rt.now();
  tx.committedAt = at;
  tx.commitDate = jstStamp(at);
  tx.updatedAt = at;
  store.save();
  return { ok: true, processDate: tx.commitDate };
}

/** ST02-00201: the sale of a committed authorisation, for its amount or less. */
function sell(ctx: SbpsContext, r: ApiRequest): ApiOut {
  const { rt, store } = ctx;
  const tx = txOf(ctx, r);
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
}

/** ST02-00303: cancels an authorisation or refunds a sale. */
function refund(ctx: SbpsContext, r: ApiRequest): ApiOut {
  const { rt, store } = ctx;
  const tx = txOf(ctx, r);
  if (tx.status !== 'authorised' && tx.status !== 'sold') throw new ApiNg(ERR.customer);
  tx.status = 'refunded';
  tx.updatedAt = rt.now();
  store.save();
  return { ok: true, trackingId: tx.trackingId };
}

/** MG01-00101: the transaction's payment and commit status. */
function inquire(ctx: SbpsContext, r: ApiRequest): ApiOut {
  const tx = txOf(ctx, r);
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
}

/** The request ids the API serves, by id. */
export const HANDLERS: Record<string, (ctx: SbpsContext, r: ApiRequest) => ApiOut> = {
  'MG02-00131-101': (ctx, r) => register(ctx, r, 'create'),
  'MG02-00132-101': (ctx, r) => register(ctx, r, 'update'),
  'MG02-00104-101': showCustomer,
  'MG02-00103-101': deleteCustomer,
  // ST01-00111 (authorise with card data) is not served: removed from SBPS's API (vogle's
  // README; ADR 0058). It answers as any request id SBPS does not know.
  'ST01-00131-101': authorise,
  'ST02-00101-101': commit,
  'ST02-00201-101': sell,
  'ST02-00303-101': refund,
  'MG01-00101-101': inquire,
};
