import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';

export type OutgoingMail = {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
};
export type SandboxMail = OutgoingMail & { id: string; received_at: string };

export type Mailbox = {
  deliver(mail: OutgoingMail): SandboxMail;
  list(filter?: { to?: string }): SandboxMail[];
  get(id: string): SandboxMail | undefined;
  clear(): void;
};

/**
 * The sandbox mailbox: every mail Tenpo sends in sandbox mode lands here instead of an SMTP
 * server. Kept as one JSON file in the sandbox's data folder so it survives a restart; a
 * write goes to a temporary file renamed over the old one, so a crash never leaves half a file.
 */
export function createMailbox(dir: string | null): Mailbox {
  const file = dir ? path.join(dir, 'mailbox.json') : null;
  let mails: SandboxMail[] = [];
  let seen = -1;
  // A worker process delivers into the same file as the API process that shows it: read the
  // file again whenever another process has changed it.
  const load = (): void => {
    if (!file) return;
    let mtime: number;
    try {
      mtime = fs.statSync(file).mtimeMs;
    } catch {
      return;
    }
    if (mtime === seen) return;
    try {
      mails = JSON.parse(fs.readFileSync(file, 'utf8')) as SandboxMail[];
      seen = mtime;
    } catch {
      mails = [];
    }
  };
  const save = (): void => {
    if (!file) return;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(mails));
    fs.renameSync(tmp, file);
    seen = fs.statSync(file).mtimeMs;
  };
  load();
  return {
    deliver(mail) {
      load();
      const stored: SandboxMail = {
        ...mail,
        id: randomUUID(),
        received_at: new Date().toISOString(),
      };
      mails.push(stored);
      if (mails.length > 500) mails = mails.slice(-500);
      save();
      return stored;
    },
    list(filter) {
      load();
      const to = filter?.to?.toLowerCase();
      return mails
        .filter((m) => !to || m.to.toLowerCase() === to)
        .slice()
        .reverse();
    },
    get: (id) => {
      load();
      return mails.find((m) => m.id === id);
    },
    clear() {
      mails = [];
      save();
    },
  };
}
