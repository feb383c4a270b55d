import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bodyObject, esc, page, wantsJson, type Dict } from '../shared/http';
import {
  faultKinds,
  faultProviders,
  providers,
  type FaultInput,
  type FaultKind,
  type Provider,
  type Runtime,
} from '../shared/runtime';

const KIND_LABELS: Record<FaultKind, string> = {
  expired_token: '401 トークン期限切れ / expired token',
  rate_limit: '429 レート制限 / rate limited',
  server_error: '5xx サーバーエラー / server error',
  slow: '遅延 / slow answer',
  flaky: '429 または 5xx / rate limited or server error',
  policy_block: 'Graph 368 ポリシーによる一時制限 / temporarily blocked (policy)',
  password_changed: 'Graph 190/460 パスワード変更 / password changed',
  deauthorized: 'Graph 190/458 アプリの認可取り消し / app de-authorised',
  suspended: 'X 403 凍結 / Google 403 PERMISSION_DENIED (suspended)',
};

/** What each provider actually answers for each kind, shown on the page. */
const ANSWERS: Record<Provider, string> = {
  google:
    '401 UNAUTHENTICATED (ACCESS_TOKEN_EXPIRED) · 429 RESOURCE_EXHAUSTED + RetryInfo · 500 INTERNAL / 503 UNAVAILABLE · 403 PERMISSION_DENIED (suspended)',
  facebook:
    '400 code 190/463 · 400 code 32 (page token) or 17 (user token) + X-Business-Use-Case-Usage / X-App-Usage · 500 code 1 / 503 code 2 · 400 code 368 · 400 code 190/460 · 400 code 190/458',
  instagram:
    '400 code 190/463 · 400 code 4 + X-Business-Use-Case-Usage (type instagram) · 500 code 1 / 503 code 2 · 400 code 368 · 400 code 190/460 · 400 code 190/458',
  x: '401 Unauthorized · 429 Too Many Requests + x-rate-limit-limit/remaining/reset · 500 / 503 problem · 403 problems/user-suspended',
  llm: 'Chat Completions (path /llm): 401 invalid_api_key · 429 rate_limit_exceeded + Retry-After · 500 / 502 / 503 server_error',
  sbps: 'XML API (path /sbps/api): 401 · 503 + Retry-After (rate limit) · 500 / 502 / 503 HTML; pagecon sends (path /sbps/pagecon): not sent → refund, error_url 99990000 · slow delays the send',
};

function parseInput(raw: Dict): FaultInput | string {
  const provider =
    raw.provider === undefined ||
    raw.provider === null ||
    raw.provider === '' ||
    raw.provider === '*'
      ? null
      : String(raw.provider);
  const kind = String(raw.kind ?? '');
  if (provider !== null && !(providers as readonly string[]).includes(provider))
    return `provider must be one of ${providers.join(', ')} (or omitted for all)`;
  if (!(faultKinds as readonly string[]).includes(kind))
    return `kind must be one of ${faultKinds.join(', ')}`;
  const only = faultProviders[kind as FaultKind];
  if (only && (provider === null || !(only as readonly string[]).includes(provider)))
    return `kind ${kind} needs provider ${only.join(' or ')}`;
  const num = (v: unknown): number | undefined =>
    v === undefined || v === '' || v === null ? undefined : Number(v);
  const fraction = num(raw.fraction);
  if (fraction !== undefined && !(Number.isFinite(fraction) && fraction > 0 && fraction <= 1))
    return 'fraction must be a number in (0, 1]';
  const count = raw.count ?? raw.remaining;
  const remaining =
    count === undefined && fraction !== undefined && raw.until_cleared === undefined
      ? null
      : count === 'until_cleared' ||
          count === null ||
          count === 0 ||
          count === '0' ||
          raw.until_cleared === true ||
          raw.until_cleared === 'on'
        ? null
        : (num(count) ?? 1);
  const status = num(raw.status);
  const seed = num(raw.seed);
  if (seed !== undefined && !Number.isInteger(seed)) return 'seed must be an integer';
  const delay = num(raw.delay_ms);
  const retry = num(raw.retry_after_seconds);
  for (const [name, v] of [
    ['count', remaining],
    ['status', status],
    ['delay_ms', delay],
    ['retry_after_seconds', retry],
  ] as const)
    if (v !== undefined && v !== null && (!Number.isFinite(v) || v < 0))
      return `${name} must be a non-negative number`;
  if (status !== undefined && (status < 500 || status > 599)) return 'status must be a 5xx code';
  const account =
    typeof raw.account === 'string' && raw.account.trim() && raw.account.trim() !== '*'
      ? raw.account.trim()
      : null;
  const method = typeof raw.method === 'string' && raw.method.trim() ? raw.method.trim() : null;
  if (method && !/^(GET|POST|PUT|PATCH|DELETE)$/i.test(method))
    return 'method must be GET, POST, PUT, PATCH or DELETE';
  const path = typeof raw.path === 'string' && raw.path.trim() ? raw.path.trim() : null;
  return {
    provider: provider as Provider | null,
    kind: kind as FaultKind,
    fraction: fraction ?? null,
    ...(seed !== undefined ? { seed } : {}),
    account,
    method,
    path,
    remaining,
    status,
    delay_ms: delay,
    retry_after_seconds: retry,
  };
}

/**
 * The fault switches (`/faults`) and the controls (`/control/*`): JSON for tests, a small page
 * for a person. Faults apply to provider API calls (not to consent pages or token endpoints).
 */
export function registerFaults(app: FastifyInstance, rt: Runtime): void {
  const back = (req: FastifyRequest, reply: FastifyReply, json: unknown, status = 200) => {
    if (wantsJson(req) || req.headers['content-type']?.includes('application/json'))
      return reply.code(status).send(json);
    return reply.redirect(`${rt.baseUrl}/faults`, 303);
  };

  app.get('/faults', async (req, reply) => {
    const list = rt.faults.list();
    if (wantsJson(req)) return { data: list };
    const rows = list
      .map(
        (
          f,
        ) => `<tr><td>${esc(f.provider ?? '全部 / all')}${f.fraction !== null ? ` · ${Math.round(f.fraction * 100)}% (seed ${f.seed}, ${f.fired}/${f.seen})` : ''}</td><td>${esc(f.account ?? '全アカウント / all')}</td><td>${esc(KIND_LABELS[f.kind])}${f.kind === 'server_error' ? ` (${f.status})` : ''}${f.kind === 'slow' ? ` (${f.delay_ms} ms)` : ''}${f.kind === 'rate_limit' ? ` (${f.retry_after_seconds} s)` : ''}</td>
<td>${f.remaining === null ? '解除まで / until cleared' : f.remaining}</td><td><form method="post" action="${rt.baseUrl}/faults/${f.id}/delete"><button>解除 / clear</button></form></td></tr>`,
      )
      .join('');
    reply.type('text/html; charset=utf-8');
    return page(
      'サンドボックス 障害スイッチ / Fault switches',
      `<h1>障害スイッチ <small>Fault switches</small></h1>
<p class="muted">プロバイダー API への呼び出しを失敗させて、Tenpo の回復を確かめます。/ Make provider API calls fail to watch Tenpo recover.</p>
<div class="card"><form method="post" action="${rt.baseUrl}/faults">
<p><label>プロバイダー / Provider <select name="provider"><option value="">全部 / all</option>${providers.map((p) => `<option>${p}</option>`).join('')}</select></label></p>
<p><label>アカウント / Account <input name="account" placeholder="shop@tenpo.example, page id, IG id, @username (空欄 = 全部)"></label></p>
<p><label>種類 / Kind <select name="kind">${faultKinds.map((k) => `<option value="${k}">${esc(KIND_LABELS[k])}</option>`).join('')}</select></label></p>
<p><label>回数 / Next N calls <input name="count" type="number" min="1" value="1"></label> <label><input type="checkbox" name="until_cleared"> 解除まで / until cleared</label></p>
<p><label>割合 / fraction of calls <input name="fraction" type="number" min="0" max="1" step="0.05" placeholder="0.2"></label>
<label>seed <input name="seed" type="number" step="1" value="1"></label></p>
<p><label>5xx status <select name="status"><option>503</option><option>500</option><option>502</option></select></label>
<label>遅延 / delay ms <input name="delay_ms" type="number" min="0" value="3000"></label>
<label>Retry after s <input name="retry_after_seconds" type="number" min="0" value="60"></label></p>
<div class="actions"><button class="primary">追加 / Add</button></div></form></div>
<h2>有効なスイッチ / Active</h2>
${list.length ? `<table><thead><tr><th>Provider</th><th>Account</th><th>Kind</th><th>Left</th><th></th></tr></thead><tbody>${rows}</tbody></table>` : '<p>なし / none</p>'}
<form method="post" action="${rt.baseUrl}/faults/clear" style="margin-top:1rem"><button>すべて解除 / Clear all</button></form>
<h2>各プロバイダーの応答 / What each provider answers</h2><ul>${providers.map((p) => `<li><b>${p}</b>: ${esc(ANSWERS[p])}</li>`).join('')}</ul>
<h2>リセット / Reset</h2><form method="post" action="${rt.baseUrl}/control/reset"><button>サンドボックスを初期状態に戻す / Reset every emulator</button></form>`,
    );
  });

  app.post('/faults', async (req, reply) => {
    const parsed = parseInput(bodyObject(req));
    if (typeof parsed === 'string')
      return reply.code(400).send({ error: 'invalid_fault', message: parsed });
    const fault = rt.faults.add(parsed);
    return back(req, reply, { data: fault }, 201);
  });
  app.delete<{ Params: { id: string } }>('/faults/:id', async (req, reply) => {
    if (!rt.faults.remove(req.params.id)) return reply.code(404).send({ error: 'not_found' });
    return { data: { deleted: true } };
  });
  app.post<{ Params: { id: string } }>('/faults/:id/delete', async (req, reply) => {
    rt.faults.remove(req.params.id);
    return back(req, reply, { data: { deleted: true } });
  });
  app.delete('/faults', async () => {
    rt.faults.clear();
    return { data: [] };
  });
  app.post('/faults/clear', async (req, reply) => {
    rt.faults.clear();
    return back(req, reply, { data: [] });
  });

  // ---- controls -------------------------------------------------------------------------------
  app.get('/control/settings', async () => ({ data: rt.settings() }));
  app.patch('/control/settings', async (req) => ({ data: rt.updateSettings(bodyObject(req)) }));
  // How often each provider path was called since the last reset (tests count retries here).
  app.get('/control/calls', async () => ({ data: rt.calls.list() }));
  // Every media URL an emulator fetched, with what it found there (size, type, dimensions).
  app.get('/control/fetches', async () => ({ data: rt.fetches.list() }));
  app.delete('/control/fetches', async () => {
    rt.fetches.clear();
    return { data: [] };
  });
  app.delete('/control/calls', async () => {
    rt.calls.clear();
    return { data: {} };
  });
  app.post('/control/clock', async (req, reply) => {
    const b = bodyObject(req);
    const secs = Number(b.advance_seconds ?? 0);
    if (!Number.isFinite(secs))
      return reply
        .code(400)
        .send({ error: 'invalid', message: 'advance_seconds must be a number' });
    const offset =
      b.reset === true
        ? rt.advanceClock(-rt.settings().clockOffsetMs)
        : rt.advanceClock(secs * 1000);
    return { data: { offset_ms: offset, now: new Date(rt.now()).toISOString() } };
  });
  app.post('/control/reset', async (req, reply) => {
    const provider = (bodyObject(req).provider ?? (req.query as Dict).provider) as
      | string
      | undefined;
    if (provider && !(providers as readonly string[]).includes(provider))
      return reply
        .code(400)
        .send({ error: 'invalid', message: `provider must be one of ${providers.join(', ')}` });
    rt.reset(provider as Provider | undefined);
    return back(req, reply, { data: { reset: provider ?? 'all' } });
  });
}
