import type { SbpsConfig } from '../../config';
import type { Clock } from '../../lib/clock';
import {
  apiRequest,
  parseApiResponse,
  purchaseFields,
  resultHashOk,
  sbpsDate,
  SbpsProtocolError,
  type ApiResponse,
  type PurchaseField,
  type XmlElement,
} from './sbps.codec';

/**
 * Tenpo's SBPS client (providers.md §5, payments contract §2): every URL and secret from config.
 * The card number never passes here: cards arrive as the token pair of the browser's
 * `generateToken`, and charges name the stored card by `cust_code`.
 */

/** SBPS did not answer usably (network, time-out, 5xx, a document we cannot read): retry later. */
export class SbpsUnavailable extends Error {}

/** SBPS's error codes Tenpo acts on (payments contract §2). */
export const SBPS_ERR = {
  customer: '99995000',
  duplicateOrder: '99996000',
  token: '10107040',
} as const;

/**
 * An error code is method (3) + type (2) + item (3). Types 20–36 of the credit method are the
 * card's (softbankjs errors/ja.js: 20 不正カードフィルタ, 22 取扱不可, 23 使用不可, 24 暗証番号不正,
 * 25 利用限度回数超過, 26 取扱不可, 27 カード番号/有効期限不正, 28 取引内容取扱不可 …), except 21
 * クレジットセンターエラー, which is the card network's trouble: a decline is final for the
 * attempt, 21 is tried again later.
 */
const errType = (code: string): number | null =>
  /^\d{8}$/.test(code) ? Number(code.slice(3, 5)) : null;

/** A declined card or a wrong number/expiry: the card is the problem, not the request. */
export const isCardError = (code: string): boolean => {
  const t = errType(code);
  return code.startsWith('101') && t !== null && t >= 20 && t <= 36 && t !== 21;
};

/**
 * An NG that says "not now" rather than "no": the credit centre (type 21) or SBPS's own system
 * error (common method 999, type 90 — 9999 0xxx). Billing retries these with back-off.
 */
export const isTransientError = (code: string): boolean =>
  /^10121\d{3}$/.test(code) || /^99990\d{3}$/.test(code);

/**
 * MG01-00101's statuses (vogle PaymentStatus / CommitStatus; recorded in
 * fixtures/sbps-exchanges/MG01-00101.response.xml after a commit: commit 1, payment 1).
 */
export const PAYMENT_STATUS = {
  authorised: '1',
  sold: '2',
  cancelled: '3',
  refunded: '4',
} as const;
export const COMMIT_STATUS = {
  none: '0',
  committed: '1',
  committedCancel: '2',
  uncommittedCancel: '3',
} as const;

export type SbpsResult = Pick<ApiResponse, 'result' | 'errCode'> & Partial<ApiResponse>;

export type CardInfo = { masked: string; expiration: string; brand: string };

export type PurchaseInput = {
  custCode: string;
  orderId: string;
  itemId: string;
  itemName: string;
  amount: number;
  successUrl: string;
  cancelUrl: string;
  errorUrl: string;
  pagecon: string;
  free1?: string;
};

/** What the payments service needs of SBPS; tests put a fake of their own behind it. */
export interface SbpsClient {
  /** The token script and the merchant the browser names to it. */
  readonly provider: { tokenScriptUrl: string; merchantId: string; serviceId: string };
  /** The signed A01-1 form for the hosted purchase page. */
  purchaseForm(input: PurchaseInput): { action: string; fields: { name: string; value: string }[] };
  /** Is this A02-1 / A03-1 signed with our hash key, for our merchant? */
  verifyResult(fields: Record<string, string>): boolean;
  /** MG02-00131 (new customer) or MG02-00132 (update) with a token pair. */
  registerCard(
    custCode: string,
    token: string,
    tokenKey: string,
    update: boolean,
  ): Promise<SbpsResult>;
  /** MG02-00104: the stored card, masked. */
  referenceCard(custCode: string): Promise<SbpsResult & { card?: CardInfo }>;
  /** MG02-00103. */
  removeCard(custCode: string): Promise<SbpsResult>;
  /**
   * ST01-00131: authorise on the stored card of `custCode` (no token, `cust_manage_flg` 0;
   * ADR 0058: ST01-00111, the card-data authorisation, is not used).
   */
  authorize(input: {
    custCode: string;
    orderId: string;
    itemId: string;
    itemName: string;
    amount: number;
  }): Promise<SbpsResult>;
  /**
   * ST02-00101: commit (確定) an authorisation; its `processDate` is what sales names. Optional
   * in the interface so older fakes still type-check; the service requires it.
   */
  commit?(input: { spsTransactionId: string; trackingId: string }): Promise<SbpsResult>;
  /**
   * ST02-00201: sales (売上) of a committed authorisation, `processingDatetime` the commit's
   * `res_process_date` (now when it is not known: a resumed charge).
   */
  sales(input: {
    spsTransactionId: string;
    trackingId: string;
    amount: number;
    processingDatetime?: string;
  }): Promise<SbpsResult>;
  /**
   * MG01-00101: where a transaction stands, `commit_status` / `payment_status` decrypted in
   * `payMethodInfo` (PAYMENT_STATUS, COMMIT_STATUS).
   */
  inquire(input: { spsTransactionId: string; trackingId: string }): Promise<SbpsResult>;
}

/** Seconds a request is valid at SBPS (`limit_second`). */
const LIMIT_SECOND = '600';

/** The hash and 3DES keys of the XML API. */
export const sbpsKeys = (cfg: SbpsConfig) => ({
  hashKey: cfg.hashKey,
  key: cfg.desKey,
  iv: cfg.desIv,
});

/**
 * One call of SBPS's XML API (Basic auth, Shift_JIS, signed): no answer, an HTTP error or an
 * unreadable answer is `SbpsUnavailable`; an answer is decrypted when the request asked for it.
 * The card client and the 3-D Secure client (tds.ts) both send through it.
 */
export function sbpsApiCall(
  cfg: SbpsConfig,
  fetchImpl: typeof fetch,
): (id: string, elements: XmlElement[]) => Promise<ApiResponse> {
  const keys = sbpsKeys(cfg);
  const auth = `Basic ${Buffer.from(`${cfg.basicId}:${cfg.basicPassword}`).toString('base64')}`;
  return async (id, elements) => {
    const encrypted = elements.some(([n, v]) => n === 'encrypted_flg' && v === '1');
    let res: Response;
    try {
      res = await fetchImpl(cfg.apiUrl, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'text/xml; charset=Shift_JIS' },
        body: new Uint8Array(apiRequest(id, elements, keys)),
        signal: AbortSignal.timeout(cfg.timeoutMs),
      });
    } catch (err) {
      throw new SbpsUnavailable(`SBPS ${id}: ${(err as Error).message}`);
    }
    const bytes = Buffer.from(await res.arrayBuffer().catch(() => new ArrayBuffer(0)));
    if (!res.ok) throw new SbpsUnavailable(`SBPS ${id}: HTTP ${res.status}`);
    try {
      return parseApiResponse(bytes, encrypted, keys);
    } catch (err) {
      if (err instanceof SbpsProtocolError) throw new SbpsUnavailable(`${err.message} (${id})`);
      throw err;
    }
  };
}

export function createSbpsClient(
  cfg: SbpsConfig,
  clock: Clock,
  fetchImpl: typeof fetch = fetch,
): SbpsClient {
  const merchant: XmlElement[] = [
    ['merchant_id', cfg.merchantId],
    ['service_id', cfg.serviceId],
  ];
  const stamp = (): XmlElement[] => [
    ['request_date', sbpsDate(clock.now())],
    ['limit_second', LIMIT_SECOND],
  ];

  const call = sbpsApiCall(cfg, fetchImpl);

  const cardRequest = (custCode: string, token: string, tokenKey: string): XmlElement[] => [
    ...merchant,
    ['cust_code', custCode],
    ['sps_cust_info_return_flg', '1'],
    [
      'pay_method_info',
      [
        ['resrv1', ''],
        ['resrv2', ''],
        ['resrv3', ''],
      ],
    ],
    [
      'pay_option_manage',
      [
        ['token', token],
        ['token_key', tokenKey],
        ['cardbrand_return_flg', '1'],
      ],
    ],
    ['encrypted_flg', '1'],
    ...stamp(),
  ];

  return {
    provider: {
      tokenScriptUrl: cfg.tokenScriptUrl,
      merchantId: cfg.merchantId,
      serviceId: cfg.serviceId,
    },

    purchaseForm(input) {
      const values: Partial<Record<PurchaseField, string>> = {
        // EMV 3-D Secure, mandatory in Japan since 2025-03 (ADR 0059): SBPS's link type 'credit3d2'.
        pay_method: 'credit3d2',
        merchant_id: cfg.merchantId,
        service_id: cfg.serviceId,
        cust_code: input.custCode,
        order_id: input.orderId,
        item_id: input.itemId,
        item_name: input.itemName,
        amount: String(input.amount),
        pay_type: '0',
        service_type: '0',
        terminal_type: '0',
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        error_url: input.errorUrl,
        pagecon_url: input.pagecon,
        free1: input.free1 ?? '',
        request_date: sbpsDate(clock.now()),
        limit_second: LIMIT_SECOND,
      };
      return { action: cfg.purchaseUrl, fields: purchaseFields(values, cfg.hashKey) };
    },

    verifyResult: (f) =>
      resultHashOk(f, cfg.hashKey) &&
      f.merchant_id === cfg.merchantId &&
      f.service_id === cfg.serviceId,

    registerCard: (custCode, token, tokenKey, update) =>
      call(update ? 'MG02-00132-101' : 'MG02-00131-101', cardRequest(custCode, token, tokenKey)),

    async referenceCard(custCode) {
      const r = await call('MG02-00104-101', [
        ...merchant,
        ['cust_code', custCode],
        ['sps_cust_info_return_flg', '1'],
        ['response_info_type', '2'],
        ['pay_option_manage', [['cardbrand_return_flg', '1']]],
        ['encrypted_flg', '1'],
        ...stamp(),
      ]);
      if (r.result !== 'OK') return r;
      const i = r.payMethodInfo;
      return {
        ...r,
        card: {
          masked: i.cc_number ?? '',
          expiration: i.cc_expiration ?? '',
          brand: i.cardbrand_code ?? '',
        },
      };
    },

    removeCard: (custCode) =>
      call('MG02-00103-101', [
        ...merchant,
        ['cust_code', custCode],
        ['sps_cust_info_return_flg', '1'],
        ['encrypted_flg', '1'],
        ...stamp(),
      ]),

    authorize: (input) =>
      call('ST01-00131-101', [
        ...merchant,
        ['cust_code', input.custCode],
        ['order_id', input.orderId],
        ['item_id', input.itemId],
        ['item_name', input.itemName],
        ['tax', ''],
        ['amount', String(input.amount)],
        ['free1', ''],
        ['free2', ''],
        ['free3', ''],
        ['order_rowno', ''],
        ['sps_cust_info_return_flg', '1'],
        [
          'pay_method_info',
          [
            // One payment in full (SBPS's dealings type 10).
            ['dealings_type', '10'],
            ['divide_times', ''],
          ],
        ],
        [
          'pay_option_manage',
          [
            ['cust_manage_flg', '0'],
            ['cardbrand_return_flg', '1'],
          ],
        ],
        ['encrypted_flg', '1'],
        ...stamp(),
      ]),

    commit: (input) =>
      call('ST02-00101-101', [
        ...merchant,
        ['sps_transaction_id', input.spsTransactionId],
        ['tracking_id', input.trackingId],
        ['processing_datetime', sbpsDate(clock.now())],
        ...stamp(),
      ]),

    sales: (input) =>
      call('ST02-00201-101', [
        ...merchant,
        ['sps_transaction_id', input.spsTransactionId],
        ['tracking_id', input.trackingId],
        ['processing_datetime', input.processingDatetime || sbpsDate(clock.now())],
        ['pay_option_manage', [['amount', String(input.amount)]]],
        ...stamp(),
      ]),

    inquire: (input) =>
      call('MG01-00101-101', [
        ...merchant,
        ['sps_transaction_id', input.spsTransactionId],
        ['tracking_id', input.trackingId],
        ['response_info_type', '2'],
        ['pay_option_manage', [['cardbrand_return_flg', '1']]],
        ['encrypted_flg', '1'],
        ...stamp(),
      ]),
  };
}
