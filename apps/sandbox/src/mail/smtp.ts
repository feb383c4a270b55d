import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { Mailbox } from './mailbox';

export type SmtpListener = { port: number; close(): Promise<void> };

const addresses = (a: AddressObject | AddressObject[] | undefined): string =>
  (Array.isArray(a) ? a : a ? [a] : []).map((x) => x.text).join(', ');

/**
 * The mailbox's SMTP door: Tenpo and its workers, in processes of their own, send mail to the
 * sandbox as they would to any mail server (SMTP_URL=smtp://host:2525), so the product has no
 * sandbox branch for mail. Plain SMTP on a local port: no TLS, any login accepted or none.
 * A mail is answered 250 once it is in the mailbox file, so an accepted mail survives a crash.
 * One copy per envelope recipient, as a mailbox per address would receive it.
 */
export function listenSmtp(mailbox: Mailbox, port: number, host: string): Promise<SmtpListener> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    // Tenpo's mails are small; a runaway sender is refused rather than kept in memory.
    size: 10 * 1024 * 1024,
    onAuth(_auth, _session, callback) {
      callback(null, { user: 'sandbox' });
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const envelope = session.envelope.rcptTo.map((r) => r.address);
          const to = envelope.length > 0 ? envelope : [addresses(parsed.to)];
          for (const rcpt of to)
            mailbox.deliver({
              from:
                addresses(parsed.from) || (session.envelope.mailFrom || { address: '' }).address,
              to: rcpt,
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              ...(typeof parsed.html === 'string' ? { html: parsed.html } : {}),
            });
          callback();
        })
        .catch((err: unknown) => callback(err instanceof Error ? err : new Error(String(err))));
    },
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      // A bad message or a dropped client is the sender's problem, not a reason to stop.
      server.on('error', (err) => console.error('sandbox smtp:', err.message));
      const address = server.server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : port,
        close: () => new Promise<void>((r) => server.close(() => r())),
      });
    });
  });
}
