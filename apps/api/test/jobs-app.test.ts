import { describe, expect, it } from 'vitest';
import { buildTestApp, call } from './helpers';

// The app itself on the pg-boss driver (the contract suite, jobs.test.ts, tests the drivers
// alone): a mail the API queues is sent by the engine pg-boss runs.
describe.runIf(process.env.TEST_DATABASE_URL)('the app on the pg-boss driver', () => {
  it('queues a reset mail in the request’s transaction and sends it from pg-boss', async () => {
    const t = await buildTestApp({ TENPO_JOB_DRIVER: 'pg-boss' });
    try {
      expect(t.app.queue.driver).toBe('pg-boss');
      const res = await call(t.app, {
        method: 'POST',
        url: '/api/forgot-password',
        payload: { email: 'shop@tenpo.example' },
      });
      expect(res.statusCode).toBe(200);
      expect(t.mailbox.list({ to: 'shop@tenpo.example' })).toEqual([]);
      expect(await t.app.queue.drain()).toBe(1);
      const mails = t.mailbox.list({ to: 'shop@tenpo.example' });
      expect(mails.map((m) => m.subject)).toEqual([expect.stringContaining('パスワード再設定')]);
      expect(await t.app.queue.status()).toMatchObject({ queued: 0, failed: 0 });
    } finally {
      await t.close();
    }
  });
});
