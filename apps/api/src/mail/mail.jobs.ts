import type { JobTx, Queue } from '../jobs/queue';
import type { MailTransport, OutgoingMail } from './mailer';

export const MAIL_QUEUE = 'mail.send';

/** Mail is sent by a job, so a provider outage or a restart delays a mail but never loses it. */
export function registerMailJobs(queue: Queue, transport: MailTransport): void {
  queue.work(
    MAIL_QUEUE,
    async (payload) => {
      await transport.send(payload as OutgoingMail);
    },
    { concurrency: 4 },
  );
}

export type Mail = { to: string; subject: string; text: string };

export type MailOutbox = {
  /**
   * Queues a mail. With `trx`, the mail is queued in the caller's transaction: it exists exactly
   * when the writes that caused it commit.
   */
  send(mail: Mail, opts?: { key?: string; trx?: JobTx }): Promise<void>;
};

export const createOutbox = (queue: Queue, from: string): MailOutbox => ({
  send: (mail, opts = {}) =>
    queue.enqueue(
      MAIL_QUEUE,
      { ...mail, from },
      {
        ...(opts.key ? { key: opts.key } : {}),
        ...(opts.trx ? { trx: opts.trx } : {}),
      },
    ),
});
