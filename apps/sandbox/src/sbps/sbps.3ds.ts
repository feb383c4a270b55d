import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { basicAuth, esc, isHttpUrl, page } from '../shared/http';
import { apiHash, decodeM, fromSjis, jstStamp, toSjis } from './sbps.codec';
import { ERR, maskCard } from './sbps.constants';
import { newSpsTransactionId, type SbpsContext } from './sbps.core';
import type { SbpsCard } from './sbps.state';
import { declaredEncoding, leaves, parseXml, writeXml, type XmlPairs } from './sbps.xml';

/**
 * EMV 3-D Secure (ADR 0059). SBPS's own documentation (developer.sbpayment.jp/payment-service/
 * credit/8509) says: the link type changes `pay_method` from `credit` to `credit3d2`; the API type
 * adds "3DS認証 要求" TA02-00101-101 and "3DS認証 結果参照" TA02-00201-101. The field names of
 * those two calls are not public: the ones here (`tds2_*`) are the sandbox's own (UNCONFIRMED).
 *
 * Test cards (any other card is authenticated frictionless, as most real transactions are):
 * - 4000000000003220: the issuer asks for a one-time password; `123456` passes, anything else fails.
 * - 4000008400001629: the issuer refuses authentication (transStatus N), no challenge.
 */
export const TDS_CHALLENGE_CARD = '4000000000003220';
export const TDS_FAIL_CARD = '4000008400001629';
export const TDS_OTP = '123456';

/** The sandbox's error code for a call refused because 3-D Secure is missing or failed (UNCONFIRMED). */
export const TDS_ERR = { notAuthenticated: '10151000', failed: '10152000' } as const;

/** EMV 3DS transStatus: Y authenticated, N not, C challenge required. */
export type TdsStatus = 'Y' | 'N' | 'C';
export const tdsVerdict = (number: string): TdsStatus =>
  number === TDS_FAIL_CARD ? 'N' : number === TDS_CHALLENGE_CARD ? 'C' : 'Y';

export type TdsSession = {
  id: string;
  kind: 'link' | 'api';
  card: SbpsCard;
  /** pending until the challenge is answered; Y or N after. */
  status: 'pending' | 'Y' | 'N';
  /** Where the browser goes after the challenge (tracking id appended for the API type). */
  returnUrl: string;
  custCode: string;
  token?: string;
  amount?: string;
  /** The link type: the hosted page's purchase, and what the buyer chose there. */
  purchaseId?: string;
  saveCard?: boolean;
  registeredCard?: boolean;
  attempts: number;
  createdAt: number;
};

/** Sessions and authenticated tokens live in memory: a restarted sandbox forgets open challenges. */
type TdsState = { sessions: Map<string, TdsSession>; passedTokens: Set<string> };
const states = new WeakMap<SbpsContext['store'], TdsState>();
export const tdsState = (ctx: SbpsContext): TdsState => {
  let s = states.get(ctx.store);
  if (!s) {
    s = { sessions: new Map(), passedTokens: new Set() };
    states.set(ctx.store, s);
  }
  return s;
};

export const require3ds = (ctx: SbpsContext): boolean => ctx.rt.settings().sbps.require3ds;

export function startChallenge(
  ctx: SbpsContext,
  s: Omit<TdsSession, 'id' | 'status' | 'attempts' | 'createdAt'>,
): TdsSession {
  const session: TdsSession = {
    ...s,
    id: randomUUID(),
    status: 'pending',
    attempts: 0,
    createdAt: ctx.rt.now(),
  };
  tdsState(ctx).sessions.set(session.id, session);
  return session;
}

export const acsUrl = (ctx: SbpsContext, id: string): string =>
  `${ctx.rt.baseUrl}/sbps/tds2/acs/${encodeURIComponent(id)}`;

function challengePage(ctx: SbpsContext, s: TdsSession, message?: string): string {
  return page(
    '本人認証 | カード発行会社（サンドボックス）',
    `<h1>本人認証（3Dセキュア）</h1>
<div class="card">
<p>ご本人確認のため、カード会社からお送りしたワンタイムパスワードを入力してください。</p>
<table><tbody>
<tr><th>カード番号</th><td><code id="tds-card">${esc(maskCard(s.card.number))}</code></td></tr>
${s.amount && s.amount !== '0' ? `<tr><th>ご利用金額</th><td>${esc(Number(s.amount).toLocaleString('ja-JP'))}円</td></tr>` : ''}
</tbody></table>
${message ? `<p role="alert" style="color:#c5221f;font-weight:bold">${esc(message)}</p>` : ''}
<form method="post" action="${esc(acsUrl(ctx, s.id))}">
<p><label>ワンタイムパスワード<br><input name="otp" inputmode="numeric" autocomplete="one-time-code" maxlength="6" style="font-size:1.2rem;width:10rem"></label></p>
<div class="actions">
<button type="submit" name="action" value="cancel" formnovalidate>認証をやめる</button>
<button type="submit" name="action" value="submit" class="primary">認証する</button>
</div>
</form>
<p class="muted">テスト用ワンタイムパスワード: ${TDS_OTP}（それ以外は認証失敗）</p>
</div>`,
    '#1a73e8',
  );
}

const withParam = (url: string, k: string, v: string): string =>
  `${url}${url.includes('?') ? '&' : '?'}${encodeURIComponent(k)}=${encodeURIComponent(v)}`;

type ApiReq = { id: string; values: Map<string, string>; hashValues: string[] };

const M_FIELDS = new Set(['item_name', 'free1', 'free2', 'free3', 'resrv1', 'resrv2', 'resrv3']);

/** The same reading as sbps.api.ts (no encrypted fields in the 3DS calls). */
function readXml(body: unknown): ApiReq | null {
  let text = '';
  if (Buffer.isBuffer(body)) {
    const enc = declaredEncoding(body.subarray(0, 200).toString('latin1'));
    text = enc && /^utf-?8$/i.test(enc) ? body.toString('utf8') : fromSjis(body);
  } else if (typeof body === 'string') text = body;
  try {
    const root = parseXml(text);
    if (root.name !== 'sps-api-request') return null;
    const values = new Map<string, string>();
    const hashValues: string[] = [];
    for (const { parent, el } of leaves(root)) {
      const path = parent ? `${parent}.${el.name}` : el.name;
      const v = M_FIELDS.has(el.name) ? decodeM(el.text) : el.text;
      if (!values.has(path)) values.set(path, v.trim());
      if (el.name !== 'sps_hashcode') hashValues.push(v);
    }
    return { id: root.attrs.id ?? '', values, hashValues };
  } catch {
    return null;
  }
}

/**
 * The challenge (the issuer's ACS page) and the API type's 3DS calls. TA02-* and the refusal of
 * an unauthenticated token at card registration are answered by a hook in front of
 * `/api/xmlapi.do`, so the XML API's own handlers stay as they are.
 */
export function registerTds(app: FastifyInstance, ctx: SbpsContext): void {
  const { rt, store, merchant } = ctx;
  const st = tdsState(ctx);
  rt.onReset('sbps', () => {
    st.sessions.clear();
    st.passedTokens.clear();
  });

  app.get<{ Params: { id: string } }>('/tds2/acs/:id', async (req, reply) => {
    const s = st.sessions.get(req.params.id);
    reply.type('text/html; charset=utf-8');
    if (!s || s.status !== 'pending')
      return reply.code(404).send(page('本人認証', '<h1>この認証はすでに終了しています。</h1>'));
    return challengePage(ctx, s);
  });

  app.post<{ Params: { id: string } }>('/tds2/acs/:id', async (req, reply) => {
    const s = st.sessions.get(req.params.id);
    const b = (req.body ?? {}) as Record<string, string>;
    if (!s || s.status !== 'pending') {
      reply.type('text/html; charset=utf-8');
      return reply.code(404).send(page('本人認証', '<h1>この認証はすでに終了しています。</h1>'));
    }
    if (b.action !== 'cancel' && (b.otp ?? '').trim() !== TDS_OTP && s.attempts < 2) {
      s.attempts += 1;
      reply.type('text/html; charset=utf-8');
      return challengePage(
        ctx,
        s,
        'ワンタイムパスワードが正しくありません。もう一度入力してください。',
      );
    }
    s.status = b.action !== 'cancel' && (b.otp ?? '').trim() === TDS_OTP ? 'Y' : 'N';
    if (s.status === 'Y' && s.token) st.passedTokens.add(s.token);
    return reply.redirect(withParam(s.returnUrl, 'tracking_id', s.id), 303);
  });

  // ---- the API type: TA02-00101-101 / TA02-00201-101, and 3DS required at MG02-00131/00132 ----
  app.addHook('preHandler', async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.method !== 'POST' || !req.url.split('?')[0]?.endsWith('/api/xmlapi.do')) return;
    const r = readXml(req.body);
    if (!r) return;
    const get = (k: string) => r.values.get(k) ?? '';
    const respond = (
      id: string,
      ok: boolean,
      code: string,
      info?: XmlPairs,
      trackingId?: string,
    ) => {
      const now = jstStamp(rt.now());
      const body: [string, XmlPairs[number][1]][] = [
        ['res_result', ok ? 'OK' : 'NG'],
        ['res_sps_transaction_id', newSpsTransactionId()],
        ['res_process_date', now],
      ];
      if (trackingId) body.push(['res_tracking_id', trackingId]);
      if (info) body.push(['res_pay_method_info', info]);
      body.push(['res_err_code', ok ? '' : code], ['res_date', now]);
      return reply
        .code(200)
        .type('text/xml; charset=Shift_JIS')
        .send(toSjis(writeXml('sps-api-response', { id }, body)));
    };

    if (r.id === 'MG02-00131-101' || r.id === 'MG02-00132-101') {
      if (!require3ds(ctx)) return;
      const token = get('pay_option_manage.token');
      const t = store.data.tokens.find((x) => x.token === token);
      // Only a token that exists and is otherwise usable is the 3DS check's business.
      if (!t || t.usedAt !== null || st.passedTokens.has(token)) return;
      return respond(r.id, false, TDS_ERR.notAuthenticated);
    }
    if (r.id !== 'TA02-00101-101' && r.id !== 'TA02-00201-101') return;

    const cred = basicAuth(req);
    if (!cred || cred.id !== merchant.basicId || cred.secret !== merchant.basicPassword)
      return reply.code(401).header('www-authenticate', 'Basic realm="sps-api"').send('');
    if (get('merchant_id') !== merchant.merchantId || get('service_id') !== merchant.serviceId)
      return respond(r.id, false, ERR.merchant);
    if (apiHash(r.hashValues, merchant.hashKey) !== get('sps_hashcode').toLowerCase())
      return respond(r.id, false, ERR.hash);

    if (r.id === 'TA02-00101-101') {
      const token = get('pay_option_manage.token');
      const tokenKey = get('pay_option_manage.token_key');
      const returnUrl = get('tds2_return_url');
      const custCode = get('cust_code');
      if (!token || !tokenKey || !custCode || !isHttpUrl(returnUrl))
        return respond(r.id, false, ERR.missing);
      const t = store.data.tokens.find((x) => x.token === token);
      if (!t || t.tokenKey !== tokenKey || t.usedAt !== null || t.expiresAt <= rt.now())
        return respond(r.id, false, ERR.token);
      const verdict = tdsVerdict(t.card.number);
      const s = startChallenge(ctx, {
        kind: 'api',
        card: t.card,
        returnUrl,
        custCode,
        token,
        amount: get('amount') || undefined,
      });
      if (verdict === 'C')
        return respond(
          r.id,
          true,
          '',
          [
            ['tds2_trans_status', 'C'],
            ['tds2_challenge_url', acsUrl(ctx, s.id)],
          ],
          s.id,
        );
      s.status = verdict;
      if (verdict === 'Y') st.passedTokens.add(token);
      return respond(r.id, true, '', [['tds2_trans_status', verdict]], s.id);
    }

    // TA02-00201-101: the result, as the issuer gave it (never what the browser says).
    const s = st.sessions.get(get('tracking_id'));
    if (!s || s.kind !== 'api' || s.custCode !== get('cust_code'))
      return respond(r.id, false, ERR.value);
    return respond(
      r.id,
      true,
      '',
      [['tds2_trans_status', s.status === 'pending' ? 'C' : s.status]],
      s.id,
    );
  });
}

/** The id SBPS's link page gives a 3DS step for a purchase (the session carries the purchase). */
export const linkChallengeFor = (ctx: SbpsContext, id: string): TdsSession | undefined => {
  const s = tdsState(ctx).sessions.get(id);
  return s && s.kind === 'link' ? s : undefined;
};
