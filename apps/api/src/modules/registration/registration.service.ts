import type { LinkOrigin } from '../../lib/hosts';
import { FREE_TRIAL_DAYS, ja, ROLE, type RegistrationFormRequest } from '@tenpo/domain';
import type { z } from 'zod';
import type { registrationFormRequest } from '@tenpo/domain';
import { addMs, DAY, HOUR, iso, type Clock } from '../../lib/clock';
import { validationError } from '../../lib/errors';
import { hashPassword } from '../../lib/passwords';
import { hashToken, newToken } from '../../lib/tokens';
import type { MailOutbox } from '../../mail/mail.jobs';
import { accountCreatedMail, registrationMail, signupExistingMail } from '../../mail/templates';
import { passwordProblem } from '../../lib/password-policy';
import { createUsersRepo } from '../users/users.repo';
import type { UsersRepo } from '../users/users.repo';
import type { AuditLog } from '../audit/audit.repo';
import { accountTarget } from '../audit/audit.entries';
import type { RegistrationRepo } from './registration.repo';

export const REGISTRATION_TTL_HOURS = 72;

type Form = z.output<typeof registrationFormRequest>;
export type { RegistrationFormRequest };

export type RegistrationService = ReturnType<typeof createRegistrationService>;

export function createRegistrationService(deps: {
  repo: RegistrationRepo;
  users: UsersRepo;
  clock: Clock;
  outbox: MailOutbox;
  /** Where the mails' links point: the request's host when it is ours (lib/hosts.ts). */
  linkOrigin: LinkOrigin;
  /** The new account is recorded with the account (ADR 0047). */
  audit?: AuditLog;
}) {
  const { repo, users, clock, outbox } = deps;
  const tokenInvalid = () => validationError({ token: [ja.accessTokenExpired] });

  /**
   * A link is spent once its own token was used, and also once the account it would create
   * exists: a sign-up sent twice mails two links, and the second must fail on open (spec 1 §2,
   * token verified on open), not only on submit.
   */
  const liveToken = async (token: string) => {
    const row = await repo.tokenByHash(hashToken(token));
    if (!row || row.used_at !== null || row.expires_at <= iso(clock.now())) throw tokenInvalid();
    if (await users.findByEmail(row.email)) throw tokenInvalid();
    return row;
  };

  return {
    /** Stores the request and mails the account-registration link. */
    async submit(form: Form, requestHost?: string): Promise<void> {
      const origin = await deps.linkOrigin(requestHost);
      const now = clock.now();
      // A registered address gets the same answer as a new one; its owner is told by mail
      // instead (ADR 0065, ASVS 5.0 6.3.8), so the form does not tell who has an account.
      const existing = await users.findByEmail(form.email);
      if (existing) {
        await outbox.send(
          {
            to: existing.email,
            ...signupExistingMail(`${origin}/login`, `${origin}/forgot-password`),
          },
          { key: `signup-existing:${existing.id}:${iso(now)}` },
        );
        return;
      }
      const token = newToken();
      const link = `${origin}/register-account?token=${encodeURIComponent(token)}`;
      // The request, its token and its mail: one unit of work (a crash loses none of them alone).
      await repo.transaction(async (tx, trx) => {
        await tx.createRequest(
          {
            full_name: form.full_name,
            company_name: form.company_name,
            store_name: form.store_name,
            email: form.email,
            phone: form.phone,
            knowledge: form.knowledge,
            agent_code: form.agent_code,
            client_company_name: form.client_company_name,
            agency_name: form.agency_name,
            register_type: form.register_type,
            user_id: null,
            created_at: iso(now),
          },
          {
            token_hash: hashToken(token),
            expires_at: iso(addMs(now, REGISTRATION_TTL_HOURS * HOUR)),
          },
        );
        await outbox.send(
          { to: form.email, ...registrationMail(form.full_name, link, REGISTRATION_TTL_HOURS) },
          { key: `registration:${hashToken(token)}`, trx },
        );
      });
    },

    async verify(token: string): Promise<{ email: string }> {
      const row = await liveToken(token);
      return { email: row.email };
    },

    /**
     * Creates the free-trial account: 30 days from now (DESIGN §10), having agreed to the terms
     * on the form, so the terms dialog does not ask again.
     */
    async register(
      input: { token: string; email: string; password: string },
      requestHost?: string,
    ): Promise<void> {
      const row = await liveToken(input.token);
      if (row.email.toLowerCase() !== input.email.toLowerCase()) throw tokenInvalid();
      const problem = passwordProblem(input.password, {
        email: row.email,
        name: row.full_name,
        companyName: row.company_name,
        storeName: row.store_name,
      });
      if (problem) throw validationError({ password: [problem] });
      const passwordHash = await hashPassword(input.password);
      const origin = await deps.linkOrigin(requestHost);
      const now = clock.now();
      await repo.transaction(async (tx, trx) => {
        const user = await createUsersRepo(trx).create({
          email: row.email,
          password_hash: passwordHash,
          name: row.full_name,
          role: ROLE.freeTrial,
          account_kind: 0,
          is_leader: 0,
          // The form is refused without the agreement: this request is its record (ADR 0019).
          agreed_terms: 1,
          phone: row.phone,
          company_name: row.company_name,
          store_name: row.store_name,
          logo_url: null,
          agent_code: row.agent_code,
          trial_ends_at: iso(addMs(now, FREE_TRIAL_DAYS * DAY)),
          payment_fail: 0,
          agency_id: null,
          status: 1,
          created_at: iso(now),
          updated_at: iso(now),
        });
        if (!(await tx.useToken(row.token_id, row.request_id, user.id, iso(now))))
          throw tokenInvalid();
        await deps.audit?.record(
          {
            actor: user,
            ...accountTarget(user),
            action: 'create',
            summary: 'アカウントを登録（無料トライアル）',
            after: {
              email: user.email,
              name: user.name,
              company_name: user.company_name,
              store_name: user.store_name,
              role: user.role,
            },
          },
          trx,
        );
        await outbox.send(
          { to: row.email, ...accountCreatedMail(`${origin}/login`) },
          { key: `registered:${row.token_id}`, trx },
        );
      });
    },
  };
}
