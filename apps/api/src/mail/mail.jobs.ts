import type { Queue } from '../jobs/queue';
import type { MailTransport, OutgoingMail } from './mailer';

export const MAIL_QUEUE = 'mail.send';

/** Mail is sent by a job, so a provider outage or a restart delays a mail but never loses it. */
export function registerMailJobs(queue: Queue, transport: MailTransport): void {
  queue.handle(MAIL_QUEUE, async (payload) => {
    await transport.send(payload as OutgoingMail);
  });
}

export type Mail = { to: string; subject: string; text: string };

export type MailOutbox = { send(mail: Mail, idempotencyKey?: string): Promise<void> };

export const createOutbox = (queue: Queue, from: string): MailOutbox => ({
  send: (mail, idempotencyKey) =>
    queue.enqueue(MAIL_QUEUE, { ...mail, from }, idempotencyKey ? { idempotencyKey } : {}),
});
