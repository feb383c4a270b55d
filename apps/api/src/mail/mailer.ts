import nodemailer from 'nodemailer';

export type OutgoingMail = { from: string; to: string; subject: string; text: string };

/** Where mail goes: SMTP in production, the sandbox mailbox by default (chosen in compose.ts). */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
}

export const smtpTransport = (url: string): MailTransport => {
  const transporter = nodemailer.createTransport(url);
  return {
    async send(mail) {
      await transporter.sendMail(mail);
    },
  };
};
