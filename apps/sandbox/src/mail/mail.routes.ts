import type { FastifyInstance } from 'fastify';
import type { Mailbox, SandboxMail } from './mailbox';

const esc = (s: string): string =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** Turns the URLs in a plain-text mail into links so a person can follow them. */
const linkify = (text: string): string =>
  esc(text).replace(/https?:\/\/[^\s<]+/g, (u) => `<a href="${u}">${u}</a>`);

const page = (title: string, body: string): string => `<!doctype html><html lang="ja"><head>
<meta charset="utf-8"><title>${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:860px;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.5rem;text-align:left}
pre{white-space:pre-wrap;background:#f6f6f6;padding:1rem;border-radius:6px}a{color:#1c64d1}</style></head>
<body>${body}</body></html>`;

const wantsJson = (accept: string | undefined, format: unknown): boolean =>
  format === 'json' || (accept ?? '').includes('application/json');

export async function registerMail(app: FastifyInstance, mailbox: Mailbox): Promise<void> {
  // GET /sandbox/mail — the mailbox page; JSON for tests (Accept: application/json or ?format=json).
  app.get<{ Querystring: { to?: string; format?: string } }>('/', async (req, reply) => {
    const mails = mailbox.list({ to: req.query.to });
    if (wantsJson(req.headers.accept, req.query.format)) return { data: mails };
    const rows = mails
      .map(
        (m: SandboxMail) =>
          `<tr><td>${esc(new Date(m.received_at).toLocaleString('ja-JP', { timeZone: 'Asia/Tokyo' }))}</td><td>${esc(m.to)}</td><td><a href="mail/${m.id}">${esc(m.subject)}</a></td></tr>`,
      )
      .join('');
    reply.type('text/html; charset=utf-8');
    return page(
      'サンドボックス メールボックス',
      `<h1>サンドボックス メールボックス</h1>
<p>サンドボックスモードで Tenpo が送信したメールはここに届きます。</p>
<form method="get"><label>宛先で絞り込み <input name="to" value="${esc(req.query.to ?? '')}"></label> <button>表示</button></form>
${mails.length === 0 ? '<p>メールはまだありません。</p>' : `<table><thead><tr><th>受信日時</th><th>宛先</th><th>件名</th></tr></thead><tbody>${rows}</tbody></table>`}
<form method="post" action="mail/clear" style="margin-top:1rem"><button>すべて削除</button></form>`,
    );
  });

  app.get<{ Params: { id: string }; Querystring: { format?: string } }>(
    '/:id',
    async (req, reply) => {
      const mail = mailbox.get(req.params.id);
      if (!mail) {
        reply.code(404);
        return wantsJson(req.headers.accept, req.query.format)
          ? { error: 'not_found' }
          : page('Not found', '<p>メールが見つかりません。</p>');
      }
      if (wantsJson(req.headers.accept, req.query.format)) return { data: mail };
      reply.type('text/html; charset=utf-8');
      return page(
        mail.subject,
        `<p><a href="../mail">← メールボックスへ戻る</a></p><h1>${esc(mail.subject)}</h1>
<p>差出人: ${esc(mail.from)}<br>宛先: ${esc(mail.to)}</p><pre>${linkify(mail.text)}</pre>`,
      );
    },
  );

  app.post('/clear', async (req, reply) => {
    mailbox.clear();
    if (wantsJson(req.headers.accept, undefined)) return { data: [] };
    return reply.redirect('../mail');
  });
}
