import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { SbpsConfig } from '../../config';
import type { Clock } from '../../lib/clock';
import type { AppError } from '../../lib/errors';
import { validationError } from '../../lib/errors';
import { sbpsDate, type ApiResponse, type XmlElement } from './sbps.codec';
import { sbpsApiCall } from './sbps.client';

/**
 * EMV 3-D Secure for the API type's card registration (ADR 0059). SBPS documents the two calls
 * by id only (developer.sbpayment.jp/payment-service/credit/8509: "3DS認証 要求 TA02-00101-101",
 * "3DS認証 結果参照 TA02-00201-101"); their element names here (`tds2_return_url`,
 * `tds2_trans_status`, `tds2_challenge_url`) are the sandbox's own and UNCONFIRMED until SBPS's
 * connection-test environment is reached.
 */

/** EMV 3DS transStatus: Y authenticated, N refused, C challenge (the issuer asks the holder). */
export type TdsStatus = 'Y' | 'N' | 'C';

export const TDS_JA = {
  failed:
    'カード会社による本人認証（3Dセキュア）に失敗しました。カードは登録されていません。別のカードをお試しいただくか、カード会社にお問い合わせください。',
  challengeNeeded: '本人認証（3Dセキュア）が必要です。カード画面からもう一度登録してください。',
  expired: '本人認証の有効期限が切れました。もう一度カード情報を入力してください。',
} as const;

export interface TdsClient {
  authenticate(input: {
    custCode: string;
    token: string;
    tokenKey: string;
    returnUrl: string;
  }): Promise<{ status: TdsStatus; trackingId: string; challengeUrl: string; errCode: string }>;
  /** The issuer's verdict as SBPS holds it (never what the browser says). */
  result(custCode: string, trackingId: string): Promise<TdsStatus>;
}

const statusOf = (r: ApiResponse): TdsStatus => {
  const s = r.payMethodInfo.tds2_trans_status;
  return s === 'Y' || s === 'C' ? s : 'N';
};

export function createTdsClient(
  cfg: SbpsConfig,
  clock: Clock,
  fetchImpl: typeof fetch = fetch,
): TdsClient {
  // encrypted_flg is 0 on both calls: the answer is read as it comes.
  const call = sbpsApiCall(cfg, fetchImpl);
  const common = (custCode: string): XmlElement[] => [
    ['merchant_id', cfg.merchantId],
    ['service_id', cfg.serviceId],
    ['cust_code', custCode],
  ];
  const stamp = (): XmlElement[] => [
    ['encrypted_flg', '0'],
    ['request_date', sbpsDate(clock.now())],
    ['limit_second', '600'],
  ];
  return {
    async authenticate(i) {
      const r = await call('TA02-00101-101', [
        ...common(i.custCode),
        // Card registration: no amount is charged now (UNCONFIRMED how SBPS wants this sent).
        ['amount', '0'],
        ['tds2_return_url', i.returnUrl],
        [
          'pay_option_manage',
          [
            ['token', i.token],
            ['token_key', i.tokenKey],
          ],
        ],
        ...stamp(),
      ]);
      const errCode = r.result === 'OK' ? '' : r.errCode;
      if (r.result !== 'OK')
        return { status: 'N', trackingId: r.trackingId, challengeUrl: '', errCode };
      const status = statusOf(r);
      const challengeUrl = r.payMethodInfo.tds2_challenge_url ?? '';
      // A challenge without a URL to send the holder to cannot be completed.
      if (status === 'C' && !/^https?:\/\//.test(challengeUrl))
        return { status: 'N', trackingId: r.trackingId, challengeUrl: '', errCode };
      return { status, trackingId: r.trackingId, challengeUrl, errCode };
    },
    async result(custCode, trackingId) {
      const r = await call('TA02-00201-101', [
        ...common(custCode),
        ['tracking_id', trackingId],
        ...stamp(),
      ]);
      return r.result === 'OK' ? statusOf(r) : 'N';
    },
  };
}

/**
 * What Tenpo needs after the challenge, carried by the browser sealed (AES-256-GCM under a key
 * derived from Tenpo's secret key): the store, and the token pair to register once the issuer's
 * verdict is read from SBPS. Nothing is written before the verdict; a lost or replayed state
 * stores nothing.
 */
export type TdsPending = { userId: number; token: string; tokenKey: string; expiresAt: number };

const keyOf = (secret: Buffer): Buffer =>
  createHmac('sha256', secret).update('tenpo-3ds-state-v1').digest();

export function sealPending(secret: Buffer, p: TdsPending): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', keyOf(secret), iv);
  const body = Buffer.concat([c.update(JSON.stringify(p), 'utf8'), c.final()]);
  return Buffer.concat([iv, c.getAuthTag(), body]).toString('base64url');
}

export function openPending(secret: Buffer, sealed: string, now: Date): TdsPending | null {
  try {
    const raw = Buffer.from(sealed, 'base64url');
    if (raw.length < 29) return null;
    const d = createDecipheriv('aes-256-gcm', keyOf(secret), raw.subarray(0, 12));
    d.setAuthTag(raw.subarray(12, 28));
    const p = JSON.parse(
      Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8'),
    ) as TdsPending;
    if (typeof p.userId !== 'number' || typeof p.token !== 'string') return null;
    return p.expiresAt > now.getTime() ? p : null;
  } catch {
    return null;
  }
}

export const tdsFailed = (): AppError => validationError({ card: [TDS_JA.failed] });
export const tdsChallengeNeeded = (): AppError =>
  validationError({ card: [TDS_JA.challengeNeeded] });
export const tdsExpired = (): AppError => validationError({ card: [TDS_JA.expired] });
