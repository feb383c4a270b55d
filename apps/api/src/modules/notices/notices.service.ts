import {
  pageOf,
  type NoticeKind,
  type NoticeSettingsView,
  type NoticeView,
  type Page,
  type ReviewMailMode,
} from '@tenpo/domain';
import type { JobTx } from '../../jobs/engine';
import type { Clock } from '../../lib/clock';
import type { Mail, MailOutbox } from '../../mail/mail.jobs';
import { reviewDigestMail } from '../../mail/templates';
import type { NoticeRow, NoticesRepo, Person } from './notices.repo';

export type NoticesService = ReturnType<typeof createNoticesService>;

/** A digest lists this many reviews, and counts the rest. */
export const DIGEST_LIST = 30;
const DAY_MS = 86_400_000;

export const noticeView = (r: NoticeRow): NoticeView => ({
  id: r.id,
  kind: r.kind as NoticeKind,
  store_id: r.store_id,
  title: r.title,
  body: r.body,
  link: r.link,
  created_at: r.created_at,
  read_at: r.read_at,
});

/** One event told to some people: a notice each, and a mail to those who should get one. */
export type Tell = {
  kind: NoticeKind;
  storeId: number | null;
  title: string;
  body: string;
  /** A path of the app, e.g. `/reviews?user_id=3`. */
  link: string;
  /** Unique per event: the notices' and mails' keys are made of it and the recipient. */
  key: string;
  mail?: Omit<Mail, 'to'>;
  /** New reviews are mailed only to those who chose `immediate`; other events always. */
  mailOnly?: 'immediate';
};

/**
 * In-app notices and review mail choices (issue 25 item 2, ADR 0094). `tell` writes the notices
 * and queues the mails in the caller's transaction, so an event and what tells of it commit
 * together; the keys make a retried job write nothing twice.
 */
export function createNoticesService(deps: {
  repo: NoticesRepo;
  outbox: MailOutbox;
  clock: Clock;
  publicUrl: string;
}) {
  const { repo, clock } = deps;
  const now = () => clock.now().toISOString();

  async function tell(people: readonly Person[], e: Tell, trx?: JobTx): Promise<void> {
    const unique = [...new Map(people.map((p) => [p.id, p])).values()];
    if (unique.length === 0) return;
    const at = now();
    await repo.add(
      unique.map((p) => ({
        user_id: p.id,
        kind: e.kind,
        store_id: e.storeId,
        title: e.title,
        body: e.body,
        link: e.link,
        key: `${e.key}:${p.id}`,
        created_at: at,
      })),
      trx,
    );
    if (!e.mail) return;
    const modes = e.mailOnly
      ? await repo.modesOf(
          unique.map((p) => p.id),
          trx,
        )
      : new Map();
    for (const p of unique) {
      if (e.mailOnly && (modes.get(p.id) ?? 'immediate') !== e.mailOnly) continue;
      await deps.outbox.send(
        { to: p.email, ...e.mail },
        { key: `mail:${e.key}:${p.email}`, ...(trx ? { trx } : {}) },
      );
    }
  }

  async function list(
    userId: number,
    q: { page: number; limit: number; unread: '0' | '1' },
  ): Promise<{ data: Page<NoticeView>; unread: number }> {
    const { rows, total, unread } = await repo.page(userId, q.unread === '1', q.page, q.limit);
    return { data: pageOf(rows.map(noticeView), total, q.page, q.limit), unread };
  }

  async function settingsOf(userId: number): Promise<NoticeSettingsView> {
    return { review_mail: (await repo.modesOf([userId])).get(userId) ?? 'immediate' };
  }

  async function saveSettings(userId: number, mode: ReviewMailMode) {
    await repo.setMode(userId, mode, now());
    return settingsOf(userId);
  }

  /**
   * The daily digest (at REVIEW_DIGEST_HOUR, Tokyo): to each user on `daily`, the reviews their
   * stores received since their last digest. The mail and the mark of how far it went commit
   * together under a compare on the old mark, so two processes send one digest.
   */
  async function digest(): Promise<{ sent: number }> {
    let sent = 0;
    const until = now();
    for (const u of await repo.digestUsers()) {
      const since = u.digest_until ?? new Date(clock.now().getTime() - DAY_MS).toISOString();
      const rows = await repo.digestReviews(u.id, since, until, DIGEST_LIST + 500);
      await repo.transaction(async (r, trx) => {
        if (!(await r.setDigestUntil(u.id, until, u.digest_until))) return;
        if (rows.length === 0) return;
        const shown = rows.slice(0, DIGEST_LIST);
        const mail = reviewDigestMail({
          reviews: shown.map((x) => ({
            store: x.store_name ?? x.store_email,
            stars: x.star_rating,
            reviewer: x.reviewer_name,
            comment: x.comment,
          })),
          more: rows.length - shown.length,
          link: `${deps.publicUrl}/reviews?replied=unreplied`,
        });
        await deps.outbox.send(
          { to: u.email, ...mail },
          { key: `mail:reviews-digest:${u.id}:${until}`, trx },
        );
        sent += 1;
      });
    }
    return { sent };
  }

  return {
    tell,
    list,
    markRead: (userId: number, ids: number[] | undefined) => repo.markRead(userId, ids, now()),
    settingsOf,
    saveSettings,
    digest,
    peopleOfStore: repo.peopleOfStore,
    peopleOfStores: repo.peopleOfStores,
  };
}
