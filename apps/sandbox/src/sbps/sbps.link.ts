import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { esc, hiddenInputs, isHttpUrl, page, sleep } from '../shared/http';
import { fromSjis, jstStamp, linkHash, parseJstStamp, sjisForm } from './sbps.codec';
import { BRAND_NAMES, cardBrand, ERR, luhnOk, maskCard } from './sbps.constants';
import {
  charge,
  currentMonth,
  findCustomer,
  orderHolder,
  saveCustomerCard,
  type SbpsContext,
} from './sbps.core';
import type { SbpsCard, SbpsNotification, SbpsPurchase } from './sbps.state';
import {
  acsUrl,
  linkChallengeFor,
  require3ds,
  startChallenge,
  TDS_CHALLENGE_CARD,
  TDS_FAIL_CARD,
  TDS_OTP,
  tdsVerdict,
} from './sbps.3ds';

/** The order's own fields, with which A01-1 and A02-1/A03-1 both begin, in that order. */
const ORDER_HEAD = [
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

/** A01-1 purchase request fields, in definition order (= hash order; sbpayment.rb). */
export const A01_ORDER = [
  ...ORDER_HEAD,
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
  'sps_hashcode',
] as const;

/** A02-1 notification and A03-1 return fields, in definition order (= hash order). */
export const A02_ORDER = [
  ...ORDER_HEAD,
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
  'sps_hashcode',
] as const;

const ERROR_TEXT: Record<string, string> = {
  [ERR.missing]: '必須項目が指定されていません。',
  [ERR.length]: '項目の桁数が正しくありません。',
  [ERR.value]: '項目の値が正しくありません。',
  [ERR.hash]: 'チェックサム（sps_hashcode）が一致しません。',
  [ERR.expired]: '購入要求の有効期限が切れています。',
  [ERR.merchant]: 'マーチャントID・サービスIDが正しくありません。',
  [ERR.duplicateOrder]: 'この購入ID（order_id）はすでに使われています。',
  [ERR.system]: 'お支払い画面の有効期限が切れたか、すでに処理されています。',
};

/** The SBPS error screen: the code and what it means, no way back into the merchant's site. */
export function errorPage(reply: FastifyReply, code: string, status = 200): FastifyReply {
  reply.code(status).type('text/html; charset=utf-8');
  return reply.send(
    page(
      'エラー | SBペイメントサービス（サンドボックス）',
      `<h1>お手続きを続けられません</h1>
<div class="card"><p>${esc(ERROR_TEXT[code] ?? 'エラーが発生しました。')}</p>
<p class="muted">エラーコード: <code id="sbps-error-code">${esc(code)}</code></p>
<p class="muted">お手数ですが、お店のページに戻ってもう一度お試しください。</p></div>`,
      '#c5221f',
    ),
  );
}

type CardFormError = { message: string };

function cardPage(ctx: SbpsContext, p: SbpsPurchase, error?: CardFormError): string {
  const f = p.fields;
  const c = findCustomer(ctx, f.merchant_id ?? '', f.service_id ?? '', f.cust_code ?? '');
  const year = Number(currentMonth(ctx.rt).slice(0, 4));
  const years = Array.from({ length: 20 }, (_, i) => String(year + i));
  const months = Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, '0'));
  const registered = c
    ? `<label class="opt"><input type="radio" name="card_choice" value="registered" checked>
登録済みのカード: <b>${esc(BRAND_NAMES[c.card.brand])}</b> <code>${esc(maskCard(c.card.number))}</code>
<span class="muted">有効期限 ${esc(c.card.expiration.slice(4))}/${esc(c.card.expiration.slice(0, 4))}</span></label>`
    : '';
  return page(
    'お支払い | SBペイメントサービス（サンドボックス）',
    `<h1>クレジットカードでのお支払い</h1>
<div class="card">
<table><tbody>
<tr><th>ご利用内容</th><td>${esc(f.item_name || f.item_id || '-')}</td></tr>
<tr><th>お支払い金額</th><td><b id="sbps-amount">${esc(Number(f.amount).toLocaleString('ja-JP'))}円</b></td></tr>
<tr><th>購入ID</th><td><code>${esc(f.order_id ?? '')}</code></td></tr>
</tbody></table>
${error ? `<p role="alert" style="color:#c5221f;font-weight:bold">${esc(error.message)}</p>` : ''}
<form method="post" action="${esc(ctx.rt.baseUrl)}/sbps/f01/FepPayment.do" accept-charset="Shift_JIS">
<input type="hidden" name="purchase_id" value="${esc(p.id)}">
${registered}
<label class="opt"><input type="radio" name="card_choice" value="new"${c ? '' : ' checked'}> 新しいカードを使う</label>
<fieldset style="border:1px solid #dadce0;border-radius:6px;margin:.6rem 0;padding:.8rem">
<legend>カード情報</legend>
<p><label>カード番号<br><input name="cc_number" inputmode="numeric" autocomplete="cc-number" maxlength="19" placeholder="半角数字（ハイフンなし）" style="width:100%;font-size:1rem"></label></p>
<p><label>有効期限（月） <select name="cc_exp_month">${months.map((m) => `<option>${m}</option>`).join('')}</select></label>
<label>（年） <select name="cc_exp_year">${years.map((y) => `<option>${y}</option>`).join('')}</select></label></p>
<p><label>セキュリティコード <input name="security_code" inputmode="numeric" autocomplete="cc-csc" maxlength="4" size="5"></label></p>
<p><label><input type="checkbox" name="save_card" value="1" checked> このカードを次回以降のお支払いに登録する</label></p>
</fieldset>
<div class="actions">
<button type="submit" name="action" value="cancel" formnovalidate>キャンセル</button>
<button type="submit" name="action" value="pay" class="primary">支払う</button>
</div>
</form>
<p class="muted">テストカード: 4111111111111111（承認）・4000000000000002（与信枠超過で拒否）・4000000000000069（有効期限誤り）</p>
<p class="muted">3Dセキュア: ${TDS_CHALLENGE_CARD}（ワンタイムパスワード ${TDS_OTP} で認証）・${TDS_FAIL_CARD}（本人認証失敗）・その他のカードは追加認証なし</p>
</div>`,
    '#e60012',
  );
}

/** The browser's way back to the merchant: a form POSTing the A03-1 fields as Shift_JIS. */
function autoSubmit(url: string, fields: readonly (readonly [string, string])[]): string {
  const hidden = hiddenInputs(Object.fromEntries(fields));
  return `<!doctype html><html lang="ja"><head><meta charset="utf-8"><title>お支払い結果を送信しています</title></head>
<body style="font-family:system-ui,sans-serif;margin:2rem">
<p>お支払い結果をお店のページへ送信しています…</p>
<form id="sbps-result" method="post" action="${esc(url)}" accept-charset="Shift_JIS">${hidden}
<noscript><button type="submit">お店のページへ戻る</button></noscript></form>
<script>document.getElementById('sbps-result').submit();</script>
</body></html>`;
}

export type NotifyResult = {
  reply: { status: number; body: string } | null;
  error: string | null;
  accepted: boolean;
  /** A fault switch stopped the send: the sandbox failed, not the merchant. */
  faulted: boolean;
};

/**
 * One server-to-server POST of an A02-1 body. `OK,` (or a bare `OK`) with HTTP 200 accepts;
 * `NG,…`, anything else, another status, a network error or the time-out refuses.
 */
export async function postNotification(
  ctx: SbpsContext,
  url: string,
  body: string,
  accounts: string[],
): Promise<NotifyResult> {
  let pathOnly = url;
  try {
    pathOnly = new URL(url).pathname;
  } catch {
    /* an unusable URL fails in fetch below */
  }
  for (const f of ctx.rt.faults.take('sbps', accounts, {
    method: 'POST',
    url: `/sbps/pagecon${pathOnly}`,
  })) {
    if (f.kind === 'slow') await sleep(f.delay_ms);
    else return { reply: null, error: `fault: ${f.kind}`, accepted: false, faulted: true };
  }
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=Shift_JIS' },
      body,
      signal: AbortSignal.timeout(ctx.rt.settings().sbps.pageconTimeoutMs),
    });
    const text = fromSjis(Buffer.from(await res.arrayBuffer()));
    const trimmed = text.trim();
    return {
      reply: { status: res.status, body: text },
      error: null,
      accepted: res.status === 200 && (trimmed === 'OK' || trimmed.startsWith('OK,')),
      faulted: false,
    };
  } catch (e) {
    const err = e as Error;
    return {
      reply: null,
      error: err.name === 'TimeoutError' ? 'timeout' : `${err.name}: ${err.message}`,
      accepted: false,
      faulted: false,
    };
  }
}

const formOf = (body: unknown): Record<string, string> => {
  if (!body || typeof body !== 'object' || Buffer.isBuffer(body)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(body as Record<string, unknown>))
    if (typeof v === 'string') out[k] = v;
  return out;
};

/** The first reason the request is refused, as an SBPS error code. */
const refusal = (ctx: SbpsContext, f: Record<string, string>): string | null => {
  const { rt, merchant } = ctx;
  const v = (k: string): string => (f[k] ?? '').trim();
  if (v('merchant_id') !== merchant.merchantId || v('service_id') !== merchant.serviceId)
    return ERR.merchant;
  for (const k of [
    'cust_code',
    'order_id',
    'amount',
    'success_url',
    'cancel_url',
    'error_url',
    'pagecon_url',
    'request_date',
    'sps_hashcode',
  ])
    if (v(k) === '') return ERR.missing;
  if (linkHash(A01_ORDER, f, merchant.hashKey) !== v('sps_hashcode').toLowerCase()) return ERR.hash;
  const at = parseJstStamp(v('request_date'));
  const limit = /^\d{1,4}$/.test(v('limit_second')) ? Number(v('limit_second')) : 600;
  if (at === null || rt.now() > at + limit * 1000) return ERR.expired;
  if (v('order_id').length > 38 || v('cust_code').length > 64) return ERR.length;
  if (!/^\d+$/.test(v('amount')) || Number(v('amount')) <= 0) return ERR.value;
  if (v('tax') !== '' && !/^\d+$/.test(v('tax'))) return ERR.value;
  const methods = v('pay_method')
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  if (methods.length && !methods.some((m) => m === 'credit' || m === 'credit3d2')) return ERR.value;
  // EMV 3-D Secure required (ADR 0059): only `credit3d2` may be offered.
  if (require3ds(ctx) && !methods.includes('credit3d2')) return ERR.value;
  for (const k of ['success_url', 'cancel_url', 'error_url', 'pagecon_url'])
    if (!isHttpUrl(v(k))) return ERR.value;
  if (orderHolder(ctx, v('merchant_id'), v('service_id'), v('order_id'))) return ERR.duplicateOrder;
  return null;
};

/** Charges the card, tells the merchant (A02-1 to pagecon_url) and sends the buyer back. */
async function finish(
  ctx: SbpsContext,
  reply: FastifyReply,
  p: SbpsPurchase,
  card: SbpsCard,
  usedRegistered: boolean,
  saveCard: boolean,
): Promise<FastifyReply | string> {
  const { rt, store, merchant } = ctx;
  const f = p.fields;
  const field = (k: string): string => (f[k] ?? '').trim();
  const tx = charge(ctx, {
    merchantId: field('merchant_id'),
    serviceId: field('service_id'),
    orderId: field('order_id'),
    custCode: field('cust_code'),
    itemId: field('item_id'),
    itemName: field('item_name'),
    amount: Number(field('amount')),
    tax: field('tax') === '' ? 0 : Number(field('tax')),
    card,
    channel: 'link',
    settle: 'sold',
  });
  const ok = tx.status === 'sold';
  if (ok && !usedRegistered && saveCard)
    saveCustomerCard(ctx, field('merchant_id'), field('service_id'), field('cust_code'), card);

  const result = (res: 'OK' | 'NG', err: string): [string, string][] => {
    const values: Record<string, string> = {
      ...Object.fromEntries(A02_ORDER.map((k) => [k, f[k] ?? ''])),
      pay_method: f.pay_method ?? '',
      res_pay_method: 'credit',
      res_result: res,
      res_tracking_id: tx.trackingId,
      res_sps_cust_no: '',
      res_sps_payment_no: '',
      res_payinfo_key: '',
      res_payment_date: res === 'OK' ? jstStamp(tx.createdAt) : '',
      res_err_code: err,
      res_date: jstStamp(rt.now()),
    };
    // Upper-case hex, as the real A02-1 (sbpayment.rb purchase_report_spec: BE33A23E…).
    values.sps_hashcode = linkHash(A02_ORDER, values, merchant.hashKey).toUpperCase();
    return A02_ORDER.map((k) => [k, values[k] ?? '']);
  };

  const sent = result(ok ? 'OK' : 'NG', tx.errCode);
  const body = sjisForm(sent);
  const url = field('pagecon_url');
  const outcome = await postNotification(ctx, url, body, [
    field('cust_code'),
    field('order_id'),
    `${field('merchant_id')}${field('service_id')}`,
  ]);
  const n: SbpsNotification = {
    id: randomUUID(),
    url,
    orderId: field('order_id'),
    trackingId: tx.trackingId,
    fields: sent,
    body,
    sentAt: rt.now(),
    reply: outcome.reply,
    error: outcome.error,
    accepted: outcome.accepted,
    resends: [],
  };
  store.data.notifications.push(n);

  let back = sent;
  if (ok && !outcome.accepted) {
    // The merchant did not take the result: the charge is undone and the buyer told it failed.
    tx.status = 'refunded';
    tx.updatedAt = rt.now();
    back = result('NG', outcome.faulted ? ERR.system : ERR.merchantRefused);
  }
  p.state = ok && outcome.accepted ? 'paid' : 'failed';
  store.save();
  reply.type('text/html; charset=utf-8');
  return autoSubmit(ok && outcome.accepted ? field('success_url') : field('error_url'), back);
}

/** `POST /f01/FepBuyInfoReceive.do` (A01-1) and the hosted page's own `POST /f01/FepPayment.do`. */
export function registerLink(app: FastifyInstance, ctx: SbpsContext): void {
  const { rt, store } = ctx;

  app.post('/f01/FepBuyInfoReceive.do', async (req, reply) => {
    const f = formOf(req.body);
    const code = refusal(ctx, f);
    if (code) return errorPage(reply, code);
    const p: SbpsPurchase = { id: randomUUID(), fields: f, createdAt: rt.now(), state: 'open' };
    store.data.purchases.push(p);
    store.save();
    reply.type('text/html; charset=utf-8');
    return cardPage(ctx, p);
  });

  app.post('/f01/FepPayment.do', async (req, reply) => {
    const b = formOf(req.body);
    const p = store.data.purchases.find((x) => x.id === b.purchase_id);
    if (!p || p.state !== 'open') return errorPage(reply, ERR.system);
    const f = p.fields;
    const field = (k: string): string => (f[k] ?? '').trim();
    if (b.action === 'cancel') {
      p.state = 'cancelled';
      store.save();
      return reply.redirect(field('cancel_url'), 303);
    }

    // The card: the customer's registered one, or the one typed here (checked as SBPS's form does).
    let card: SbpsCard;
    const registered = findCustomer(
      ctx,
      field('merchant_id'),
      field('service_id'),
      field('cust_code'),
    );
    if (b.card_choice === 'registered' && registered) card = registered.card;
    else {
      const number = (b.cc_number ?? '').replace(/[\s-]/g, '');
      const exp = `${b.cc_exp_year ?? ''}${b.cc_exp_month ?? ''}`;
      const again = (message: string) => {
        reply.type('text/html; charset=utf-8');
        return cardPage(ctx, p, { message });
      };
      if (!/^\d{14,16}$/.test(number) || !luhnOk(number))
        return again('カード番号が正しくありません。');
      if (!/^\d{4}(0[1-9]|1[0-2])$/.test(exp) || exp < currentMonth(rt))
        return again('有効期限が正しくありません。');
      if (!/^\d{3,4}$/.test(b.security_code ?? ''))
        return again('セキュリティコードが正しくありません。');
      card = { number, expiration: exp, brand: cardBrand(number) };
    }
    // Another tab may have paid this order meanwhile.
    if (orderHolder(ctx, field('merchant_id'), field('service_id'), field('order_id')))
      return errorPage(reply, ERR.duplicateOrder);

    const useRegistered = b.card_choice === 'registered' && registered !== undefined;
    // EMV 3-D Secure (credit3d2): the issuer authenticates the card before it is charged.
    if (field('pay_method').split(',').includes('credit3d2')) {
      const verdict = tdsVerdict(card.number);
      if (verdict === 'N') {
        reply.type('text/html; charset=utf-8');
        return cardPage(ctx, p, { message: TDS_FAILED_TEXT });
      }
      if (verdict === 'C') {
        const s = startChallenge(ctx, {
          kind: 'link',
          card,
          returnUrl: `${rt.baseUrl}/sbps/f01/FepTds2Return.do`,
          custCode: field('cust_code'),
          amount: field('amount'),
          purchaseId: p.id,
          saveCard: b.save_card === '1',
          registeredCard: useRegistered,
        });
        return reply.redirect(acsUrl(ctx, s.id), 303);
      }
    }
    return finish(ctx, reply, p, card, useRegistered, b.save_card === '1');
  });

  // Back from the issuer's challenge (the sandbox's ACS): charge only an authenticated card.
  app.get('/f01/FepTds2Return.do', async (req, reply) => {
    const q = req.query as Record<string, string>;
    const s = linkChallengeFor(ctx, q.tracking_id ?? '');
    const p = s && store.data.purchases.find((x) => x.id === s.purchaseId);
    if (!s || !p || p.state !== 'open' || s.status === 'pending')
      return errorPage(reply, ERR.system);
    s.status = s.status === 'Y' ? 'Y' : 'N';
    const f = p.fields;
    if (orderHolder(ctx, f.merchant_id ?? '', f.service_id ?? '', f.order_id ?? ''))
      return errorPage(reply, ERR.duplicateOrder);
    if (s.status !== 'Y') {
      reply.type('text/html; charset=utf-8');
      return cardPage(ctx, p, { message: TDS_FAILED_TEXT });
    }
    // One authentication pays once.
    s.purchaseId = undefined;
    return finish(ctx, reply, p, s.card, !!s.registeredCard, !!s.saveCard);
  });
}

const TDS_FAILED_TEXT =
  'カード会社による本人認証（3Dセキュア）に失敗しました。別のカードをお使いいただくか、カード会社にお問い合わせください。';
