import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import { registerMail } from './mail/mail.routes';
import type { Mailbox } from './mail/mailbox';
import { registerProviders } from './providers';
import { lockDataDir } from './shared/lock';
import { commitStores, flushStores } from './shared/store';

export { SandboxLockedError } from './shared/lock';
/** Google's ReviewReply.PolicyViolation values the emulator answers (the API labels each). */
export { POLICY_VIOLATIONS } from './google/google.v4-reviews';
export { listenSmtp, type SmtpListener } from './mail/smtp';
export { createMailbox, type Mailbox, type SandboxMail, type OutgoingMail } from './mail/mailbox';
export {
  sandboxDemoGrants,
  type SandboxDemoGrants,
  type SandboxFacebookGrant,
  type SandboxGoogleGrant,
} from './demo-grants';
export {
  SBPS_SANDBOX_MERCHANT,
  sandboxDemoCards,
  type SandboxDemoCard,
  type SbpsMerchant,
} from './sbps/sbps.constants';

export type SandboxOptions = {
  /** Where each emulator keeps its state across restarts. */
  dataDir: string;
  /** The public URL of the sandbox itself, e.g. http://localhost:3000/sandbox. */
  baseUrl: string;
  mailbox: Mailbox;
};

/**
 * The emulators of every outside party Tenpo talks to, as one Fastify plugin. Mounted at
 * /sandbox by the API server in the embedded default, or run on its own by main.ts.
 */
export async function sandboxPlugin(app: FastifyInstance, opts: SandboxOptions): Promise<void> {
  // Before any state is read: a second writer would keep a copy of its own and overwrite ours.
  const unlock = lockDataDir(path.join(opts.dataDir, 'sandbox'));
  app.addHook('onClose', async () => {
    flushStores();
    unlock();
  });
  // An answer leaves once the changes it reports are on disk (shared/store.ts).
  app.addHook('onSend', async () => {
    await commitStores();
  });
  await app.register(formbody);
  await app.register(async (scope) => registerMail(scope, opts.mailbox), { prefix: '/mail' });
  await registerProviders(app, opts);
  app.get('/', async (_req, reply) => {
    reply.type('text/html; charset=utf-8');
    return `<!doctype html><html lang="ja"><meta charset="utf-8"><title>Tenpo サンドボックス</title>
<body style="font-family:sans-serif;max-width:720px;margin:2rem auto">
<h1>Tenpo サンドボックス</h1>
<p>外部サービスのローカル再現です。ネットワークに出ずに Tenpo を最後まで試せます。</p>
<ul><li><a href="${opts.baseUrl}/mail">メールボックス</a></li><li><a href="${opts.baseUrl}/faults">障害の注入（Google・Facebook・Instagram・X・SBPS）</a></li>
<li>SBペイメントサービス（カード決済）: <a href="${opts.baseUrl}/sbps/control/payments">決済一覧</a> · <a href="${opts.baseUrl}/sbps/control/customers">登録カード</a> · <a href="${opts.baseUrl}/sbps/control/notifications">結果通知</a> · <a href="${opts.baseUrl}/sbps/sbpstoken/com_sbps_system_token.js">トークン JS</a></li></ul>
</body></html>`;
  });
}
