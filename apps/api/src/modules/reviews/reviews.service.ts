import {
  approvalJa,
  checkReply,
  hasBlocking,
  ja,
  publisherByKey,
  REVIEW_REPLY_MAX_BYTES,
  reviewJa,
  ruleSetsForCategory,
  type ComplianceFinding,
  type KeysetPage,
  type ReviewListQuery,
  type ReviewView,
} from '@tenpo/domain';
import { credentialHandle, type ChannelRegistry } from '../../channels/channel';
import type { UserRow } from '../../db/types';
import { AppError, notFound, validationError } from '../../lib/errors';
import type { AuditEntry } from '../audit/audit.repo';
import type { ApprovalsRepo } from './approvals.repo';
import { agencyOf, approvalView } from './approvals.view';
import { REVIEW_COUNT_CAP, type ReviewRow, type ReviewsRepo } from './reviews.repo';

const GOOGLE = 'google_my_business' as const;

export type ReviewsServiceDeps = {
  repo: ReviewsRepo;
  registry: ChannelRegistry;
  audit?: { record(entry: AuditEntry): Promise<void> };
  /** Reads the store's listing into Tenpo's copy (store information), for its category. */
  readListing?: (store: UserRow) => Promise<unknown>;
  /** Agencies' approval rules and requests (ADR 0093); without it no reply needs approval. */
  approvals?: ApprovalsRepo;
};

type Who = Pick<UserRow, 'id' | 'email' | 'role'>;
type Viewer = Pick<UserRow, 'id' | 'role'>;

export type ReviewsService = ReturnType<typeof createReviewsService>;

/** After a failed read of a store's listing (for its category), the next try waits this long. */
export const LISTING_RETRY_MS = 5 * 60_000;

const media = (text: string): ReviewView['media'] => {
  try {
    const list = JSON.parse(text) as unknown;
    return Array.isArray(list) ? (list as ReviewView['media']) : [];
  } catch {
    return [];
  }
};

/** A row as the API answers it (docs/product/reviews.md), with its approval when there is one. */
export const viewOf = (
  r: ReviewRow,
  approval: Pick<ReviewView, 'approval_required' | 'approval'> = {
    approval_required: false,
    approval: null,
  },
): ReviewView => ({
  id: r.id,
  user_id: r.store_id,
  store_name: r.store_name ?? '',
  reviewer_name: r.reviewer_name,
  reviewer_photo_url: r.reviewer_photo_url,
  is_anonymous: r.is_anonymous === 1,
  star_rating: Math.min(5, Math.max(1, r.star_rating)),
  comment: r.comment,
  media: media(r.media),
  created_at: r.created_at,
  updated_at: r.updated_at,
  reply:
    r.has_reply === 1 && r.reply_comment !== null
      ? {
          comment: r.reply_comment,
          updated_at: r.reply_updated_at ?? '',
          state: (r.reply_state ?? 'live') as 'pending' | 'live' | 'rejected',
          policy_violation: r.reply_policy_violation,
        }
      : null,
  review_reply_url: r.reply_url,
  ...approval,
});

/** A store as the audit log and the mails name it: its store name, else its login. */
export const storeLabel = (s: Pick<UserRow, 'store_name' | 'email'>) => s.store_name ?? s.email;

/**
 * The reviews inbox (issue 25): lists what the sync holds, checks a reply against the store's
 * rule sets and sends it to Google. A reply is a PUT at Google (one reply, however many times it
 * is sent), so it goes out in the request, not through a job.
 */
export function createReviewsService(deps: ReviewsServiceDeps) {
  const { repo, registry, approvals } = deps;

  /**
   * The store's Google category, from Tenpo's copy of its listing; a store whose listing was
   * never read has it read once (a clinic checked as a clinic from its first reply). Google
   * unreachable: no category, the general sets.
   */
  const listingFailedAt = new Map<number, number>();
  async function categoryOf(store: UserRow) {
    const held = await repo.categoryOf(store.id);
    if (held || !deps.readListing) return held;
    // A read that failed is not tried again for a while: a reply is checked as it is typed, and
    // an unreachable Google must not be asked on every check (the general rule sets apply).
    const failed = listingFailedAt.get(store.id);
    if (failed !== undefined && Date.now() - failed < LISTING_RETRY_MS) return null;
    try {
      await deps.readListing(store);
      listingFailedAt.delete(store.id);
    } catch {
      listingFailedAt.set(store.id, Date.now());
      return null;
    }
    return repo.categoryOf(store.id);
  }

  /** The rule sets the store's replies are checked against (its category's). */
  const ruleSetsOf = async (store: UserRow) => ruleSetsForCategory(await categoryOf(store));

  /** Does this store's agency require approval of its replies? */
  async function approvalRequired(store: Pick<UserRow, 'id' | 'role' | 'agency_id'>) {
    const agency = agencyOf(store);
    return !!approvals && agency !== null && (await approvals.requiring([agency])).has(agency);
  }

  /** The rows as the API answers them, each with its store's rule and its latest request. */
  async function viewsOf(viewer: Viewer, stores: UserRow[], rows: ReviewRow[]) {
    if (!approvals) return rows.map((r) => viewOf(r));
    const agencyByStore = new Map(stores.map((s) => [s.id, agencyOf(s)]));
    const [requiring, latest] = await Promise.all([
      approvals.requiring([...agencyByStore.values()].filter((a): a is number => a !== null)),
      approvals.latestFor(rows.map((r) => r.id)),
    ]);
    return rows.map((r) => {
      const a = latest.get(r.id);
      const agency = agencyByStore.get(r.store_id) ?? null;
      return viewOf(r, {
        approval_required: agency !== null && requiring.has(agency),
        approval: a && a.state !== 'withdrawn' ? approvalView(a, viewer, r.reply_state) : null,
      });
    });
  }

  async function list(
    viewer: Viewer,
    stores: UserRow[],
    q: ReviewListQuery,
  ): Promise<KeysetPage<ReviewView> & { total_at_least: boolean }> {
    const ids = stores.map((s) => s.id);
    const got = await repo.page(ids, q, q.page, q.limit, { after: q.after, before: q.before });
    const capped = got.total > REVIEW_COUNT_CAP;
    return {
      data: await viewsOf(viewer, stores, got.rows),
      current_page: got.current_page,
      last_page: got.last_page,
      total: capped ? REVIEW_COUNT_CAP : got.total,
      per_page: q.limit,
      from: got.from,
      to: got.to,
      next_cursor: got.next_cursor,
      prev_cursor: got.prev_cursor,
      total_at_least: capped,
    };
  }

  async function one(viewer: Viewer, stores: UserRow[], id: number): Promise<ReviewView> {
    const row = await rowOf(
      stores.map((s) => s.id),
      id,
    );
    return (await viewsOf(viewer, stores, [row]))[0] as ReviewView;
  }

  /** The review, when it belongs to one of the stores; else 404 (unknown and not yours alike). */
  async function rowOf(storeIds: number[], id: number): Promise<ReviewRow> {
    const row = await repo.byId(id);
    if (!row || !storeIds.includes(row.store_id)) throw notFound();
    return row;
  }

  /** The findings for the store's rule sets, and the review's reviewer when one is named. */
  async function check(store: UserRow, comment: string, reviewId?: number) {
    const row = reviewId === undefined ? null : await rowOf([store.id], reviewId);
    return checkFor(store, comment, row);
  }

  async function checkFor(store: UserRow, comment: string, row: ReviewRow | null) {
    const rule_sets = await ruleSetsOf(store);
    const reviewerName = row && !row.is_anonymous ? row.reviewer_name : null;
    const findings = checkReply(comment, { ruleSets: rule_sets, reviewerName });
    return { rule_sets, findings };
  }

  /** Empty, too long or blocked without an override: a 422 on `comment`, nothing sent. */
  function refuse(comment: string, findings: ComplianceFinding[], override: boolean) {
    if (comment.trim() === '') throw validationError({ comment: [reviewJa.replyRequired] });
    if (new TextEncoder().encode(comment).length > REVIEW_REPLY_MAX_BYTES)
      throw validationError({ comment: [reviewJa.replyTooLong] });
    if (hasBlocking(findings) && !override)
      throw validationError(
        {
          comment: [
            reviewJa.replyBlocked,
            ...findings
              .filter((f) => f.severity === 'block')
              .map((f) => reviewJa.findingLine(f.title, f.phrase)),
          ],
        },
        reviewJa.replyBlocked,
      );
  }

  async function connected(store: UserRow) {
    if (!(await repo.googleLocation(store.id)))
      throw new AppError(
        409,
        'channel_not_connected',
        ja.channelNotConnected(publisherByKey(GOOGLE)?.label ?? GOOGLE),
      );
  }

  async function reply(
    actor: Who,
    store: UserRow,
    id: number,
    input: { comment: string; override: boolean },
  ): Promise<ReviewView> {
    const row = await rowOf([store.id], id);
    if (await approvalRequired(store))
      throw new AppError(409, 'approval_required', approvalJa.required);
    await send(actor, store, row, input.comment, input.override);
    return one(actor, [store], row.id);
  }

  /**
   * Checks the text and sends it to Google as the store's reply (the reply route, and an
   * approved request): refused (422) or not connected (409) sends nothing. `summary` replaces
   * the audit line (an approval says who approved).
   */
  async function send(
    actor: Who,
    store: UserRow,
    row: ReviewRow,
    text: string,
    override: boolean,
    summary?: string,
  ): Promise<void> {
    const comment = text.trim();
    const { findings } = await checkFor(store, comment, row);
    refuse(comment, findings, override);
    await connected(store);
    const sent = await registry
      .require(GOOGLE, 'reviews')
      .reply(credentialHandle(store.id, GOOGLE), row.name, comment);
    await repo.saveReply(row.id, sent);
    const overridden = override && hasBlocking(findings);
    await deps.audit?.record({
      actor,
      entity: 'review',
      entityId: row.id,
      action: row.has_reply ? 'update' : 'create',
      storeId: store.id,
      summary:
        (summary ??
          (row.has_reply ? reviewJa.auditReplyEdited : reviewJa.auditReplied)(storeLabel(store))) +
        (overridden ? reviewJa.auditOverride : ''),
      before: row.has_reply ? { comment: row.reply_comment } : null,
      after: {
        comment,
        ...(overridden
          ? { override: true, findings: findings.map((f) => `${f.rule_id}: ${f.phrase}`) }
          : {}),
      },
    });
  }

  /** What a request for approval is checked against before it is kept (as a send is). */
  async function precheck(store: UserRow, row: ReviewRow, text: string, override: boolean) {
    const comment = text.trim();
    const { findings } = await checkFor(store, comment, row);
    refuse(comment, findings, override);
    return { comment, overridden: override && hasBlocking(findings) };
  }

  async function deleteReply(actor: Who, store: UserRow, id: number): Promise<ReviewView> {
    const row = await rowOf([store.id], id);
    await connected(store);
    await registry
      .require(GOOGLE, 'reviews')
      .deleteReply(credentialHandle(store.id, GOOGLE), row.name);
    await repo.saveReply(row.id, null);
    await deps.audit?.record({
      actor,
      entity: 'review',
      entityId: row.id,
      action: 'delete',
      storeId: store.id,
      summary: reviewJa.auditReplyDeleted(storeLabel(store)),
      before: { comment: row.reply_comment },
      after: null,
    });
    return one(actor, [store], row.id);
  }

  return {
    list,
    one,
    rowOf,
    ruleSetsOf,
    check,
    reply,
    send,
    precheck,
    approvalRequired,
    deleteReply,
  };
}
