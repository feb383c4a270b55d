import { fieldLabels, ja } from '@tenpo/domain';
import type { UserRow } from '../../db/types';
import { addMs, HOUR, iso, type Clock } from '../../lib/clock';
import { validationError } from '../../lib/errors';
import type { LinkOrigin } from '../../lib/hosts';
import { hashToken, newToken } from '../../lib/tokens';
import type { MailOutbox } from '../../mail/mail.jobs';
import {
  emailChangeConfirmMail,
  emailChangedMail,
  emailChangeRequestedMail,
  emailInUseMail,
} from '../../mail/templates';
import type { AuditLog } from '../audit/audit.repo';
import { accountTarget } from '../audit/audit.entries';
import type { UsersRepo } from '../users/users.repo';
import type { AccountRepo } from './account.repo';

export const EMAIL_CHANGE_TTL_HOURS = 24;

export type EmailChangeService = ReturnType<typeof createEmailChangeService>;

/**
 * Changing the login address (ADR 0065; OWASP ASVS 5.0 7.5.1 and 6.3.6): the current
 * password is asked for, the new address takes effect only when the link mailed to it is
 * opened, and the old address is told both when the change is asked for and when it is done.
 * An address that another account has is answered like any other; that address is mailed
 * instead, so the form does not tell who is registered.
 */
export function createEmailChangeService(deps: {
  repo: AccountRepo;
  users: UsersRepo;
  clock: Clock;
  outbox: MailOutbox;
  linkOrigin: LinkOrigin;
  audit: AuditLog;
  /** The current password, checked and counted as sign-in failures are (auth.service). */
  checkCurrentPassword: (user: UserRow, password: string) => Promise<void>;
}) {
  const { repo, clock, outbox } = deps;
  const invalid = () => validationError({ token: [ja.emailChangeInvalid] });

  return {
    /** Throws the field error when the current password is missing or wrong. */
    async checkPassword(user: UserRow, currentPassword: string | null): Promise<void> {
      if (!currentPassword)
        throw validationError({ current_password: [ja.required(fieldLabels.current_password)] });
      await deps.checkCurrentPassword(user, currentPassword);
    },

    /** Mails the confirmation link to `newEmail` and the notice to the present address. */
    async request(user: UserRow, newEmail: string, requestHost?: string): Promise<void> {
      const now = clock.now();
      if (await repo.emailTakenByOther(newEmail, user.id)) {
        await outbox.send(
          { to: newEmail, ...emailInUseMail() },
          { key: `email-in-use:${user.id}:${iso(now)}` },
        );
        return;
      }
      const token = newToken();
      const link = `${await deps.linkOrigin(requestHost)}/confirm-email?token=${encodeURIComponent(token)}`;
      await repo.transaction(async (tx, trx) => {
        await tx.createEmailChange({
          user_id: user.id,
          new_email: newEmail,
          token_hash: hashToken(token),
          created_at: iso(now),
          expires_at: iso(addMs(now, EMAIL_CHANGE_TTL_HOURS * HOUR)),
        });
        await outbox.send(
          { to: newEmail, ...emailChangeConfirmMail(link, EMAIL_CHANGE_TTL_HOURS) },
          { key: `email-change:${hashToken(token)}`, trx },
        );
        await outbox.send(
          { to: user.email, ...emailChangeRequestedMail(newEmail) },
          { key: `email-change-notice:${hashToken(token)}`, trx },
        );
      });
    },

    /** Applies the change of a mailed link; answers the new address. */
    async confirm(token: string): Promise<{ email: string }> {
      const row = await repo.emailChangeByHash(hashToken(token));
      const now = iso(clock.now());
      if (!row || row.used_at !== null || row.expires_at <= now) throw invalid();
      const user = await deps.users.findById(row.user_id);
      if (!user || user.status === 0) throw invalid();
      // Taken since it was asked for (a sign-up in between): the link is spent for nothing.
      if (await repo.emailTakenByOther(row.new_email, user.id)) {
        await repo.useEmailChange(row.id, now);
        throw validationError({ email: [ja.emailTaken] });
      }
      await repo.transaction(async (tx, trx) => {
        if (!(await tx.useEmailChange(row.id, now))) throw invalid();
        await tx.setEmail(user.id, row.new_email, now);
        await deps.audit.record(
          {
            actor: user,
            ...accountTarget(user),
            action: 'update',
            summary: 'メールアドレスを変更',
            before: { email: user.email },
            after: { email: row.new_email },
          },
          trx,
        );
        await outbox.send(
          { to: user.email, ...emailChangedMail(row.new_email) },
          { key: `email-changed:${row.id}`, trx },
        );
      });
      return { email: row.new_email };
    },
  };
}
