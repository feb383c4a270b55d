import type { LinkOrigin } from '../../lib/hosts';
import { ja, type LoginResponseData } from '@tenpo/domain';
import { addMs, HOUR, iso, type Clock } from '../../lib/clock';
import { AppError, validationError } from '../../lib/errors';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { hashToken, newToken } from '../../lib/tokens';
import type { MailOutbox } from '../../mail/mail.jobs';
import { loginFailuresMail, resetPasswordMail } from '../../mail/templates';
import { passwordProblem } from '../../lib/password-policy';
import type { Actor } from '../../plugins/auth';
import type { UsersService } from '../users/users.service';
import type { SessionRow, UserRow } from '../../db/types';
import type { AuditLog } from '../audit/audit.repo';
import { accountTarget } from '../audit/audit.entries';
import type { AuthRepo } from './auth.repo';
import { liveSuccessor } from './rotation';
import { createLoginThrottle, FREE_FAILURES } from './login-throttle';

export const RESET_TTL_MINUTES = 60;

/** Rotations lost to concurrent refreshes before giving up (each loss follows one chain). */
const MAX_ROTATION_ATTEMPTS = 3;

export type RequestMeta = { userAgent: string | null; ip: string | null };

// Verified against when the e-mail is unknown, so both answers take the same time.
let dummyHash: Promise<string> | null = null;

export type AuthService = ReturnType<typeof createAuthService>;

export function createAuthService(deps: {
  repo: AuthRepo;
  users: UsersService;
  clock: Clock;
  outbox: MailOutbox;
  /** Where the mails' links point: the request's host when it is ours (lib/hosts.ts). */
  linkOrigin: LinkOrigin;
  sessionTtlHours: number;
  /** Password changes are recorded as a fact, never with values (ADR 0047). */
  audit?: AuditLog;
}) {
  const { repo, users, clock, outbox } = deps;
  const throttle = createLoginThrottle(repo, clock);

  const issue = async (
    userId: number,
    meta: RequestMeta,
  ): Promise<{ token: string; sessionId: number }> => {
    const token = newToken();
    const now = clock.now();
    const session = await repo.createSession({
      user_id: userId,
      token_hash: hashToken(token),
      created_at: iso(now),
      expires_at: iso(addMs(now, deps.sessionTtlHours * HOUR)),
      user_agent: meta.userAgent?.slice(0, 255) ?? null,
      ip: meta.ip,
    });
    return { token, sessionId: session.id };
  };

  /** A new password of the rules of lib/password-policy.ts, judged against its account. */
  const refuseWeak = (password: string, user: UserRow): void => {
    const problem = passwordProblem(password, {
      email: user.email,
      name: user.name,
      companyName: user.company_name,
      storeName: user.store_name,
    });
    if (problem) throw validationError({ password: [problem] });
  };

  /**
   * The current password asked again of a signed-in user (a password change, a new login
   * address): its failures count with the sign-in failures of the address, so a stolen session
   * guesses no faster than a sign-in form (ADR 0065).
   */
  const checkCurrentPassword = async (user: UserRow, current: string): Promise<void> => {
    const key = user.email.toLowerCase();
    await throttle.claim(key);
    if (!(await verifyPassword(user.password_hash, current)))
      throw validationError({ current_password: [ja.currentPasswordWrong] });
    await throttle.succeeded(key);
  };

  const loginData = async (token: string, userId: number): Promise<LoginResponseData> => {
    const row = await users.repo.findById(userId);
    if (!row) throw new AppError(401, 'unauthenticated', ja.unauthenticated);
    return {
      token,
      connect_GMB: await users.repo.googleConnected(row.id),
      user: await users.present(row),
    };
  };

  return {
    async login(email: string, password: string, meta: RequestMeta): Promise<LoginResponseData> {
      // Counted per address, registered or not, so that a lock tells nothing (ADR 0065).
      const key = email.toLowerCase();
      const claim = await throttle.claim(key);
      const user = await users.repo.findByEmail(email);
      dummyHash ??= hashPassword('not-a-real-password');
      const ok = await verifyPassword(user?.password_hash ?? (await dummyHash), password);
      if (!user || !ok || user.status === 0) {
        if (
          user &&
          user.status !== 0 &&
          claim.failures > FREE_FAILURES &&
          (await throttle.shouldNotify(key))
        ) {
          const link = `${await deps.linkOrigin(undefined)}/forgot-password`;
          await outbox.send(
            { to: user.email, ...loginFailuresMail(claim.failures, link) },
            { key: `login-failures:${user.id}:${iso(clock.now())}` },
          );
        }
        throw new AppError(401, 'invalid_credentials', ja.invalidCredentials, {
          email: [ja.invalidCredentials],
        });
      }
      await throttle.succeeded(key);
      const { token } = await issue(user.id, meta);
      return loginData(token, user.id);
    },

    /**
     * Rotates the token: a new session replaces the presented one, which stops working. When a
     * concurrent refresh rotated it first (a page reloaded while its own rotation travelled),
     * this one carries on from the session that rotation led to (ADR 0012).
     */
    async refresh(actor: Actor, meta: RequestMeta): Promise<LoginResponseData> {
      let current: Actor | undefined = actor;
      for (let attempt = 0; attempt < MAX_ROTATION_ATTEMPTS && current; attempt += 1) {
        const { token, sessionId } = await issue(current.user.id, meta);
        if (await repo.revoke(current.session.id, iso(clock.now()), sessionId)) {
          return loginData(token, current.user.id);
        }
        // Lost the race: the new session must not outlive the one it was meant to replace.
        await repo.deleteSession(sessionId);
        const latest: SessionRow | undefined = (await repo.sessionById(current.session.id))
          ?.session;
        current = latest && (await liveSuccessor(repo, clock.now(), latest));
      }
      throw new AppError(401, 'unauthenticated', ja.unauthenticated);
    },

    async logout(actor: Actor): Promise<void> {
      await repo.revoke(actor.session.id, iso(clock.now()));
    },

    /** Always answers the same, so the form does not tell who has an account. */
    async forgotPassword(email: string, requestHost?: string): Promise<void> {
      const user = await users.repo.findByEmail(email);
      if (!user || user.status === 0) return;
      const token = newToken();
      const now = clock.now();
      const link = `${await deps.linkOrigin(requestHost)}/reset-password?token=${encodeURIComponent(token)}&email=${encodeURIComponent(user.email)}`;
      // The reset and its mail commit together.
      await repo.transaction(async (tx, trx) => {
        await tx.createReset({
          user_id: user.id,
          token_hash: hashToken(token),
          created_at: iso(now),
          expires_at: iso(addMs(now, RESET_TTL_MINUTES * 60 * 1000)),
        });
        await outbox.send(
          { to: user.email, ...resetPasswordMail(link, RESET_TTL_MINUTES) },
          { key: `reset:${hashToken(token)}`, trx },
        );
      });
    },

    async resetPassword(input: { token: string; email: string; password: string }): Promise<void> {
      const invalid = validationError({ token: [ja.resetTokenInvalid] });
      const reset = await repo.resetByHash(hashToken(input.token));
      const now = iso(clock.now());
      if (!reset || reset.used_at !== null || reset.expires_at <= now) throw invalid;
      const user = await users.repo.findById(reset.user_id);
      if (!user || user.email.toLowerCase() !== input.email.toLowerCase()) throw invalid;
      refuseWeak(input.password, user);
      const passwordHash = await hashPassword(input.password);
      await repo.transaction(async (trx, db) => {
        if (!(await trx.useReset(reset.id, now))) throw invalid;
        await trx.setPassword(user.id, passwordHash, now);
        // A new password ends every session that the old one opened.
        await trx.revokeAllOf(user.id, now);
        await deps.audit?.record(
          { actor: user, ...accountTarget(user), action: 'update', summary: 'パスワードを再設定' },
          db,
        );
      });
      // The owner proved the address: a lock that someone else's guesses caused ends here.
      await throttle.succeeded(user.email.toLowerCase());
    },

    checkCurrentPassword,

    async changePassword(actor: Actor, current: string, next: string): Promise<void> {
      await checkCurrentPassword(actor.user, current);
      refuseWeak(next, actor.user);
      const now = iso(clock.now());
      const passwordHash = await hashPassword(next);
      // The new password and the end of the other sessions: both or neither.
      await repo.transaction(async (tx, db) => {
        await tx.setPassword(actor.user.id, passwordHash, now);
        await tx.revokeAllOf(actor.user.id, now, actor.session.id);
        await deps.audit?.record(
          {
            actor: actor.user,
            ...accountTarget(actor.user),
            action: 'update',
            summary: 'パスワードを変更',
          },
          db,
        );
      });
    },
  };
}
