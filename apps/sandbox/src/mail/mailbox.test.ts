import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import formbody from '@fastify/formbody';
import { describe, expect, it } from 'vitest';
import { registerMail } from './mail.routes';
import { createMailbox } from './mailbox';

const mail = {
  from: 'Tenpo <no-reply@tenpo.example>',
  to: 'Shop@Tenpo.Example',
  subject: '件名',
  text: 'リンク: http://localhost:3000/reset-password?token=abc&email=x',
};

describe('sandbox mailbox', () => {
  it('keeps mail across a restart, newest first, filtered by recipient', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-mail-'));
    const a = createMailbox(dir);
    a.deliver(mail);
    a.deliver({ ...mail, to: 'other@tenpo.example', subject: '二通目' });
    const b = createMailbox(dir);
    expect(b.list().map((m) => m.subject)).toEqual(['二通目', '件名']);
    expect(b.list({ to: 'shop@tenpo.example' })).toHaveLength(1);
    b.clear();
    expect(createMailbox(dir).list()).toEqual([]);
  });

  it('is shared by processes: what one delivers, another shows, and no delivery is lost', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-mail-'));
    const api = createMailbox(dir);
    const worker = createMailbox(dir);
    worker.deliver({ ...mail, subject: 'ワーカーから' });
    expect(api.list().map((m) => m.subject)).toEqual(['ワーカーから']);
    api.deliver({ ...mail, subject: 'API から' });
    worker.deliver({ ...mail, subject: 'ワーカーから 2' });
    expect(api.list().map((m) => m.subject)).toEqual([
      'ワーカーから 2',
      'API から',
      'ワーカーから',
    ]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves a page a person can use and JSON for tests', async () => {
    const box = createMailbox(null);
    const stored = box.deliver(mail);
    const app = Fastify();
    await app.register(formbody);
    await app.register(async (s) => registerMail(s, box), { prefix: '/sandbox/mail' });

    const json = await app.inject({
      method: 'GET',
      url: '/sandbox/mail?to=shop@tenpo.example',
      headers: { accept: 'application/json' },
    });
    expect(json.json()).toMatchObject({ data: [{ id: stored.id, subject: '件名' }] });

    const page = await app.inject({ method: 'GET', url: '/sandbox/mail' });
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('サンドボックス メールボックス');
    expect(page.body).toContain(`href="mail/${stored.id}"`);

    const one = await app.inject({ method: 'GET', url: `/sandbox/mail/${stored.id}` });
    // The link in the mail is clickable, and the text is escaped.
    expect(one.body).toContain(
      '<a href="http://localhost:3000/reset-password?token=abc&amp;email=x">',
    );

    expect((await app.inject({ method: 'GET', url: '/sandbox/mail/nope' })).statusCode).toBe(404);
    const cleared = await app.inject({
      method: 'POST',
      url: '/sandbox/mail/clear',
      headers: { accept: 'application/json' },
    });
    expect(cleared.json()).toEqual({ data: [] });
    expect(box.list()).toEqual([]);
    await app.close();
  });
});
