import {
  APPROVAL_EXPIRY_DAYS,
  approvalJa,
  noticeJa,
  OPEN_APPROVAL_STATES,
  postApprovalJa,
  ROLE,
  type ApprovalItemView,
  type ApprovalListQuery,
  type ApprovalSettingsView,
  type KeysetPage,
} from '@tenpo/domain';
import type { UserRow } from '../../db/types';
import type { Clock } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import { approvalDecidedMail, approvalRequestedMail } from '../../mail/templates';
import type { JobTx } from '../../jobs/engine';
import type { NoticesService } from '../notices/notices.service';
import type { AuditEntry } from '../audit/audit.repo';
import type { ApprovalRow, ApprovalsRepo } from './approvals.repo';
import { agencyOf, approvalView, mayDecide } from './approvals.view';
import type { ReviewRow } from './reviews.repo';
import { storeLabel, type ReviewsService } from './reviews.service';

type Who = Pick<UserRow, 'id' | 'email' | 'role'>;

export type ApprovalsServiceDeps = {
  repo: ApprovalsRepo;
  reviews: ReviewsService;
  /** The store's row by id, for a request decided away from its route (the sweep). */
  storeById: (id: number) => Promise<UserRow | undefined>;
  notices: Pick<NoticesService, 'tell' | 'peopleOfStore'>;
  clock: Clock;
  publicUrl: string;
  audit?: { record(entry: AuditEntry): Promise<void> };
  log?: { warn(obj: object, msg: string): void };
};

export type ApprovalsService = ReturnType<typeof createApprovalsService>;

/** An `approved` row this old was claimed by a process that did not finish: send it again. */
export const APPROVED_STUCK_MS = 10 * 60_000;

const DAY_MS = 86_400_000;
const tokyoDate = (iso: string) =>
  new Date(iso).toLocaleDateString('ja-JP', { timeZone: 'Asia/Tokyo' });

/** The author is told what became of a request; the mail is queued with the state it tells of. */
function authorMails(deps: ApprovalsServiceDeps) {
  const link = (storeId: number) => `${deps.publicUrl}/reviews?user_id=${storeId}`;
  async function tellAuthor(
    row: ApprovalRow,
    store: UserRow,
    outcome: 'sent' | 'rejected' | 'expired',
    by: string | null,
    note: string | null,
    comment: string,
    trx?: JobTx,
  ) {
    if (row.author_id === null) return;
    const title = {
      sent: noticeJa.approvalSent,
      rejected: noticeJa.approvalRejected,
      expired: noticeJa.approvalExpired,
    }[outcome](storeLabel(store));
    await deps.notices.tell(
      [{ id: row.author_id, email: row.author_email }],
      {
        kind: 'approval_decided',
        storeId: store.id,
        title,
        body: (note ?? comment).slice(0, 120),
        link: `/reviews?user_id=${store.id}`,
        key: `approval-${outcome}:${row.id}`,
        mail: approvalDecidedMail({
          storeName: storeLabel(store),
          outcome,
          by,
          note,
          comment,
          link: link(store.id),
        }),
      },
      trx,
    );
  }

  return { link, tellAuthor };
}

type SendApproved = (
  row: ApprovalRow,
  store: UserRow,
  review: ReviewRow,
  actor: Who,
  override: boolean,
) => Promise<void>;
type TellAuthor = ReturnType<typeof authorMails>['tellAuthor'];

function createSweep(
  deps: ApprovalsServiceDeps,
  sendApproved: SendApproved,
  tellAuthor: TellAuthor,
) {
  const { repo, reviews, clock } = deps;
  const now = () => clock.now().toISOString();
  /**
   * The sweep (each reviews round): requests past their expiry become `expired` and their
   * authors are told; an `approved` request a crashed process left unsent is sent again
   * (Google's updateReply is a PUT: a second call does not make a second reply).
   */
  return async function sweep(): Promise<{ expired: number; resent: number }> {
    let expired = 0;
    for (const row of await repo.stale(now())) {
      const store = await deps.storeById(row.store_id);
      if (!store) continue;
      await repo.transaction(async (r, trx) => {
        if (await r.move(row.id, ['pending'], 'expired', { updated_at: now() })) {
          expired += 1;
          await tellAuthor(row, store, 'expired', null, null, row.comment, trx);
        }
      });
    }
    let resent = 0;
    const before = new Date(clock.now().getTime() - APPROVED_STUCK_MS).toISOString();
    for (const row of await repo.stuckApproved(before)) {
      const store = await deps.storeById(row.store_id);
      if (!store || row.decided_by === null) continue;
      // Claim it again (its updated_at moves), so two sweeps do not both send it.
      if (!(await repo.reclaim(row.id, row.updated_at, now()))) continue;
      try {
        const review = await reviews.rowOf([store.id], row.review_id);
        const approver = (await deps.storeById(row.decided_by)) ?? store;
        await sendApproved(row, store, review, approver, row.override === 1);
        resent += 1;
      } catch (e) {
        deps.log?.warn({ approval: row.id, err: String(e) }, 'an approved reply could not be sent');
      }
    }
    return { expired, resent };
  };
}

/** The requests of the stores, as the viewer sees them. */
async function listOf(
  repo: ApprovalsRepo,
  viewer: Who,
  storeIds: number[],
  q: ApprovalListQuery,
): Promise<KeysetPage<ApprovalItemView>> {
  const list = await repo.page(storeIds, q);
  return {
    data: list.rows.map((r) => ({
      ...approvalView(r, viewer, r.reply_state),
      store_name: r.store_name ?? '',
      review_star_rating: r.star_rating,
      review_comment: r.review_comment,
      reviewer_name: r.reviewer_name,
    })),
    current_page: list.current_page,
    last_page: list.last_page,
    total: list.total,
    per_page: q.limit,
    from: list.from,
    to: list.to,
    next_cursor: list.next_cursor,
    prev_cursor: list.prev_cursor,
  };
}

/** An agency's rules: read by its stores, set by the agency itself or a manager. */
function createSettings(deps: ApprovalsServiceDeps) {
  const { repo, clock } = deps;
  const now = () => clock.now().toISOString();
  async function settingsOf(viewer: Who, target: UserRow): Promise<ApprovalSettingsView> {
    const agency = agencyOf(target);
    const [replies, posts] = agency
      ? await Promise.all([repo.requiring([agency]), repo.requiring([agency], 'posts')])
      : [new Set<number>(), new Set<number>()];
    return {
      agency_id: agency,
      replies_need_approval: agency !== null && replies.has(agency),
      posts_need_approval: agency !== null && posts.has(agency),
      can_edit: agency !== null && (viewer.id === agency || viewer.role === ROLE.manager),
    };
  }

  async function saveSettings(
    actor: Who,
    target: UserRow,
    rules: {
      replies_need_approval?: boolean | undefined;
      posts_need_approval?: boolean | undefined;
    },
  ) {
    if (target.role !== ROLE.agency) throw notFound();
    const before = await settingsOf(actor, target);
    await repo.setRules(
      target.id,
      { replies: rules.replies_need_approval, posts: rules.posts_need_approval },
      now(),
    );
    const lines = [
      ...(rules.replies_need_approval === undefined
        ? []
        : [approvalJa.auditSettings(rules.replies_need_approval)]),
      ...(rules.posts_need_approval === undefined
        ? []
        : [postApprovalJa.auditSettings(rules.posts_need_approval)]),
    ];
    const after = await settingsOf(actor, target);
    if (lines.length)
      await deps.audit?.record({
        actor,
        entity: 'agency',
        entityId: target.id,
        action: 'update',
        storeId: null,
        summary: lines.join('、'),
        before: {
          replies_need_approval: before.replies_need_approval,
          posts_need_approval: before.posts_need_approval,
        },
        after: {
          replies_need_approval: after.replies_need_approval,
          posts_need_approval: after.posts_need_approval,
        },
      });
    return after;
  }

  return { settingsOf, saveSettings };
}

/**
 * Approval of replies (issue 25 item 6, ADR 0093). An agency may require that its stores'
 * replies are approved: the author asks, another person (the store, its agency or a manager)
 * approves — then the reply goes to Google at once — or sends it back. Every change of state is
 * one conditional update, so two approvers at once make one send; the mails are queued in the
 * same transaction as the state they tell of.
 */
export function createApprovalsService(deps: ApprovalsServiceDeps) {
  const { repo, reviews, clock } = deps;
  const now = () => clock.now().toISOString();
  const { link, tellAuthor } = authorMails(deps);

  /** The request of one of the store's reviews, or 404 (unknown and another's alike). */
  async function requestOf(store: UserRow, id: number): Promise<ApprovalRow> {
    const row = await repo.byId(id);
    if (!row || row.store_id !== store.id) throw notFound();
    return row;
  }

  /**
   * Asks for approval of a reply: checked as a send is (422 on `comment`), then kept `pending`
   * and the approvers mailed. An open request of the review is replaced (withdrawn).
   */
  async function request(
    actor: Who,
    store: UserRow,
    reviewId: number,
    input: { comment: string; override: boolean },
  ) {
    const review = await reviews.rowOf([store.id], reviewId);
    if (!(await reviews.approvalRequired(store)))
      throw new AppError(409, 'approval_not_required', approvalJa.notRequired);
    const { comment } = await reviews.precheck(store, review, input.comment, input.override);
    const at = now();
    const expires = new Date(clock.now().getTime() + APPROVAL_EXPIRY_DAYS * DAY_MS).toISOString();
    // Who decides: the store and its agency (those told of its reviews), not the author.
    const approvers = (await deps.notices.peopleOfStore(store.id)).filter((p) => p.id !== actor.id);
    const id = await repo
      .transaction(async (r, trx) => {
        const open = await r.openFor(review.id);
        if (open) await r.move(open.id, OPEN_APPROVAL_STATES, 'withdrawn', { updated_at: at });
        const id = await r.insert({
          review_id: review.id,
          store_id: store.id,
          state: 'pending',
          comment,
          override: input.override ? 1 : 0,
          author_id: actor.id,
          author_email: actor.email,
          decided_by: null,
          decided_by_email: null,
          decided_at: null,
          note: null,
          created_at: at,
          updated_at: at,
          expires_at: expires,
          sent_at: null,
        });
        const mail = approvalRequestedMail({
          storeName: storeLabel(store),
          author: actor.email,
          comment,
          expiresOn: tokyoDate(expires),
          link: link(store.id),
        });
        await deps.notices.tell(
          approvers,
          {
            kind: 'approval_requested',
            storeId: store.id,
            title: noticeJa.approvalRequested(storeLabel(store)),
            body: comment.slice(0, 120),
            link: `/reviews?user_id=${store.id}`,
            key: `approval-request:${id}`,
            mail,
          },
          trx,
        );
        return id;
      })
      .catch((e: unknown) => {
        // Another tab asked at the same moment: the partial unique index kept one request.
        if (/unique|UNIQUE/.test(String((e as Error).message)))
          throw new AppError(409, 'approval_decided', approvalJa.decided);
        throw e;
      });
    await deps.audit?.record({
      actor,
      entity: 'review',
      entityId: review.id,
      action: 'update',
      storeId: store.id,
      summary: approvalJa.auditRequested(storeLabel(store)),
      before: null,
      after: { approval_id: id, comment, override: input.override },
    });
    return reviews.one(actor, [store], review.id);
  }

  /**
   * Approves and sends. The claim (`pending`/`failed` → `approved`) is one conditional update:
   * a second approver, another tab or a double click gets 409 and sends nothing. Google's
   * refusal leaves the request `failed` with the reason, to be approved again.
   */
  async function approve(
    actor: Who,
    store: UserRow,
    id: number,
    input: { comment?: string | undefined; override: boolean },
  ) {
    const row = await requestOf(store, id);
    if (row.author_id === actor.id) throw new AppError(409, 'own_request', approvalJa.ownRequest);
    if (!mayDecide(actor, store.id)) throw notFound();
    const review = await reviews.rowOf([store.id], row.review_id);
    const { comment } = await reviews.precheck(
      store,
      review,
      input.comment ?? row.comment,
      input.override,
    );
    const at = now();
    const claimed = await repo.move(id, OPEN_APPROVAL_STATES, 'approved', {
      comment,
      decided_by: actor.id,
      decided_by_email: actor.email,
      decided_at: at,
      note: null,
      updated_at: at,
    });
    if (!claimed) throw new AppError(409, 'approval_decided', approvalJa.decided);
    await sendApproved({ ...row, comment }, store, review, actor, input.override);
    return reviews.one(actor, [store], review.id);
  }

  /** Sends an `approved` request and records the outcome (`sent`, or `failed` and rethrown). */
  async function sendApproved(
    row: ApprovalRow,
    store: UserRow,
    review: ReviewRow,
    actor: Who,
    override: boolean,
  ) {
    try {
      await reviews.send(
        actor,
        store,
        review,
        row.comment,
        override,
        approvalJa.auditApproved(storeLabel(store)),
      );
    } catch (e) {
      const reason = e instanceof AppError ? e.message : String((e as Error).message ?? e);
      await repo.move(row.id, ['approved'], 'failed', { note: reason, updated_at: now() });
      throw e;
    }
    await repo.transaction(async (r, trx) => {
      const at = now();
      if (await r.move(row.id, ['approved'], 'sent', { sent_at: at, updated_at: at }))
        await tellAuthor(row, store, 'sent', actor.email, null, row.comment, trx);
    });
  }

  async function reject(actor: Who, store: UserRow, id: number, note: string) {
    const row = await requestOf(store, id);
    if (row.author_id === actor.id) throw new AppError(409, 'own_request', approvalJa.ownRequest);
    if (!mayDecide(actor, store.id)) throw notFound();
    const at = now();
    const moved = await repo.transaction(async (r, trx) => {
      const ok = await r.move(id, OPEN_APPROVAL_STATES, 'rejected', {
        decided_by: actor.id,
        decided_by_email: actor.email,
        decided_at: at,
        note: note || null,
        updated_at: at,
      });
      if (ok) await tellAuthor(row, store, 'rejected', actor.email, note || null, row.comment, trx);
      return ok;
    });
    if (!moved) throw new AppError(409, 'approval_decided', approvalJa.decided);
    await deps.audit?.record({
      actor,
      entity: 'review',
      entityId: row.review_id,
      action: 'update',
      storeId: store.id,
      summary: approvalJa.auditRejected(storeLabel(store)),
      before: { comment: row.comment },
      after: { approval_id: id, note },
    });
    return reviews.one(actor, [store], row.review_id);
  }

  async function withdraw(actor: Who, store: UserRow, id: number) {
    const row = await requestOf(store, id);
    if (row.author_id !== actor.id) throw new AppError(403, 'not_author', approvalJa.notAuthor);
    if (!(await repo.move(id, OPEN_APPROVAL_STATES, 'withdrawn', { updated_at: now() })))
      throw new AppError(409, 'approval_decided', approvalJa.decided);
    await deps.audit?.record({
      actor,
      entity: 'review',
      entityId: row.review_id,
      action: 'update',
      storeId: store.id,
      summary: approvalJa.auditWithdrawn(storeLabel(store)),
      before: { comment: row.comment },
      after: null,
    });
    return reviews.one(actor, [store], row.review_id);
  }

  const sweep = createSweep(deps, sendApproved, tellAuthor);

  const list = (viewer: Who, storeIds: number[], q: ApprovalListQuery) =>
    listOf(repo, viewer, storeIds, q);

  return { ...createSettings(deps), request, approve, reject, withdraw, list, sweep };
}
