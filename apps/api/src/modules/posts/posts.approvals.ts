import {
  formatPostDate,
  noticeJa,
  POST_APPROVAL_EXPIRY_DAYS,
  postApprovalJa,
  type KeysetPage,
  type PostApprovalItemView,
  type PostApprovalListQuery,
  type PostView,
} from '@tenpo/domain';
import type { PostRow, UserRow } from '../../db/types';
import type { JobTx, Queue } from '../../jobs/engine';
import type { Clock } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import { postApprovalDecidedMail, postApprovalRequestedMail } from '../../mail/templates';
import type { MediaStorage } from '../../storage';
import type { AuditEntry } from '../audit/audit.repo';
import type { NoticesService } from '../notices/notices.service';
import type { ApprovalsRepo } from '../reviews/approvals.repo';
import { agencyOf, mayDecide } from '../reviews/approvals.view';
import { storeLabel } from '../reviews/reviews.service';
import {
  type PostApprovalRow,
  type PostApprovalsQueries,
  type PostApprovalsRepo,
} from './posts.approvals.repo';
import { jobOf, PUBLISH_QUEUE, REMOVE_QUEUE, removeKeyOf } from './posts.jobs';
import { approvalSummary, labelOf } from './posts.present';

type Who = Pick<UserRow, 'id' | 'email' | 'role'>;
type Person = { id: number; email: string };

export type PostApprovalsDeps = {
  repo: PostApprovalsRepo;
  /** The agencies' rules (approval_settings, shared with replies). */
  rules: Pick<ApprovalsRepo, 'requiring'>;
  queue: Queue;
  notices: Pick<NoticesService, 'tell' | 'peopleOfStores'>;
  /** The store's row by id, for a request decided away from its route (the sweep). */
  storeById: (id: number) => Promise<UserRow | undefined>;
  /** The post as the screens read it, once decided. */
  onePost: (id: number, storeIds: readonly number[]) => Promise<PostView>;
  storage: MediaStorage;
  clock: Clock;
  publicUrl: string;
  audit?: { record(entry: AuditEntry): Promise<void> };
};

export type PostApprovals = ReturnType<typeof createPostApprovals>;

/** What the post form needs to hold a submission's posts: computed before its transaction. */
export type HeldStores = Map<number, Person[]>;

const DAY_MS = 86_400_000;

const channelsOf = (post: Pick<PostRow, 'channels'>) =>
  (JSON.parse(post.channels) as string[]).map(labelOf).join('、');

type End = (
  r: PostApprovalsQueries,
  row: PostApprovalRow,
  to: 'rejected' | 'withdrawn' | 'expired',
  patch: Partial<PostApprovalRow>,
) => Promise<boolean>;
type TellAuthor = (
  row: PostApprovalRow,
  post: PostRow,
  store: UserRow,
  outcome: 'approved' | 'rejected' | 'expired',
  by: string | null,
  note: string | null,
  trx: JobTx,
) => Promise<void>;

const linkOf = (storeId: number) => `/posts?user_id=${storeId}`;

type AuditLine = 'auditApproved' | 'auditRejected' | 'auditWithdrawn' | 'auditExpired';

/** A decision on a post's request, in the post's history (ADR 0047): who, which, and why. */
const auditDecision = (
  deps: PostApprovalsDeps,
  actor: Who | null,
  post: PostRow,
  store: UserRow,
  line: AuditLine,
  after: Record<string, unknown>,
) =>
  deps.audit?.record({
    actor,
    entity: 'post',
    entityId: post.id,
    action: 'update',
    storeId: store.id,
    summary: postApprovalJa[line](storeLabel(store)),
    before: null,
    after,
  });

/** The author is told what became of a request, in the transaction of the state it tells of. */
function createTellAuthor(deps: PostApprovalsDeps): TellAuthor {
  const link = linkOf;
  return async function tellAuthor(
    row: PostApprovalRow,
    post: PostRow,
    store: UserRow,
    outcome: 'approved' | 'rejected' | 'expired',
    by: string | null,
    note: string | null,
    trx: JobTx,
  ) {
    if (row.author_id === null) return;
    const title = {
      approved: noticeJa.postApprovalApproved,
      rejected: noticeJa.postApprovalRejected,
      expired: noticeJa.postApprovalExpired,
    }[outcome](storeLabel(store));
    await deps.notices.tell(
      [{ id: row.author_id, email: row.author_email }],
      {
        kind: 'approval_decided',
        storeId: store.id,
        title,
        body: (note ?? post.content).slice(0, 120),
        link: link(store.id),
        key: `post-approval-${outcome}:${row.id}`,
        mail: postApprovalDecidedMail({
          storeName: storeLabel(store),
          outcome,
          by,
          note,
          content: post.content,
          link: `${deps.publicUrl}${link(store.id)}`,
        }),
      },
      trx,
    );
  };
}

/** Each reviews round: requests nobody decided on in time expire; their authors are told. */
function createSweep(deps: PostApprovalsDeps, end: End, tellAuthor: TellAuthor) {
  const { repo, clock } = deps;
  const now = () => clock.now().toISOString();
  return async function sweep(): Promise<{ expired: number }> {
    let expired = 0;
    for (const row of await repo.stale(now())) {
      const store = await deps.storeById(row.store_id);
      const post = (await repo.postsOf([row.post_id]))[0];
      if (!store || !post) continue;
      await repo.transaction(async (r, trx) => {
        if (!(await end(r, row, 'expired', {}))) return;
        expired += 1;
        await tellAuthor(row, post, store, 'expired', null, null, trx);
      });
      await auditDecision(deps, null, post, store, 'auditExpired', { approval_id: row.id });
    }
    return { expired };
  };
}

/** The queue of requests of the stores, as the viewer sees it. */
async function listOf(
  deps: PostApprovalsDeps,
  viewer: Who,
  storeIds: number[],
  q: PostApprovalListQuery,
): Promise<KeysetPage<PostApprovalItemView>> {
  const { repo } = deps;
  const list = await repo.page(storeIds, q);
  const { rows, total } = list;
  const items = await Promise.all(
    rows.map(async (r) => {
      const open = r.state === 'pending';
      const media = await repo.mediaOf(r.post_id);
      const topic = r.post.topic ? (JSON.parse(r.post.topic) as { title?: string | null }) : null;
      return {
        ...approvalSummary(r),
        can_decide: open && r.author_id !== viewer.id && mayDecide(viewer, r.store_id),
        can_withdraw: open && r.author_id === viewer.id,
        store_name: r.store_name ?? '',
        content: r.post.content,
        shared_sns_type: (JSON.parse(r.post.channels) as string[]).join(','),
        publish_date: formatPostDate(new Date(r.post.publish_at)),
        delete_date: r.post.delete_at ? formatPostDate(new Date(r.post.delete_at)) : null,
        media_url: await Promise.all(media.map((k) => deps.storage.browserUrl(k))),
        post_type: r.post.post_type,
        title: topic?.title ?? null,
      };
    }),
  );
  return {
    data: items,
    current_page: list.current_page,
    last_page: list.last_page,
    total,
    per_page: q.limit,
    from: list.from,
    to: list.to,
    next_cursor: list.next_cursor,
    prev_cursor: list.prev_cursor,
  };
}

/**
 * Approval of posts (issue 25 item 6 "and posts, reusing the same flow"; ADR 0095). With its
 * agency's rule on, a store's post is made with its targets `awaiting_approval` and no job, and
 * a `pending` request; the store and its agency (not the author) are told. Approving is one
 * conditional update `pending → approved` in the transaction that schedules the targets and
 * queues their jobs (by the targets' idempotency keys): one approver schedules the post, once,
 * and a crash leaves either nothing or all of it. Sent back, withdrawn or expired: the targets
 * end `not_approved` and the post is never sent.
 */
export function createPostApprovals(deps: PostApprovalsDeps) {
  const { repo, clock, queue } = deps;
  const now = () => clock.now().toISOString();
  const link = linkOf;

  /** The stores (of these) whose posts wait for approval, with who is told: before the transaction. */
  async function held(stores: readonly UserRow[], actor: Who): Promise<HeldStores> {
    const agencies = stores.map(agencyOf).filter((a): a is number => a !== null);
    const on = await deps.rules.requiring(agencies, 'posts');
    const held = stores.filter((s) => {
      const agency = agencyOf(s);
      return agency !== null && on.has(agency);
    });
    // One read for every store's people, however many stores (issue 26: no per-store trips).
    const people = await deps.notices.peopleOfStores(held.map((s) => s.id));
    const out: HeldStores = new Map();
    for (const s of held)
      out.set(
        s.id,
        (people.get(s.id) ?? []).filter((p) => p.id !== actor.id),
      );
    return out;
  }

  /** Inside the post form's transaction: the request of one held post, and its notices. */
  async function open(
    trx: JobTx,
    post: PostRow,
    store: UserRow,
    actor: Who,
    approvers: readonly Person[],
  ): Promise<void> {
    const at = clock.now();
    let expires = at.getTime() + POST_APPROVAL_EXPIRY_DAYS * DAY_MS;
    // A post that would be removed before the week is out waits no longer than that.
    if (post.delete_at) expires = Math.min(expires, new Date(post.delete_at).getTime());
    const id = await repo.within(trx).insert({
      post_id: post.id,
      store_id: store.id,
      state: 'pending',
      author_id: actor.id,
      author_email: actor.email,
      decided_by: null,
      decided_by_email: null,
      decided_at: null,
      note: null,
      created_at: at.toISOString(),
      updated_at: at.toISOString(),
      expires_at: new Date(expires).toISOString(),
    });
    await deps.notices.tell(
      approvers,
      {
        kind: 'approval_requested',
        storeId: store.id,
        title: noticeJa.postApprovalRequested(storeLabel(store)),
        body: post.content.slice(0, 120),
        link: link(store.id),
        key: `post-approval-request:${id}`,
        mail: postApprovalRequestedMail({
          storeName: storeLabel(store),
          author: actor.email,
          content: post.content,
          channels: channelsOf(post),
          publishOn: formatPostDate(new Date(post.publish_at)),
          expiresOn: formatPostDate(new Date(expires)),
          link: `${deps.publicUrl}${link(store.id)}`,
        }),
      },
      trx,
    );
  }

  const tellAuthor = createTellAuthor(deps);

  /** The request of one of the store's posts, with its post, or 404 (unknown and another's alike). */
  async function requestOf(store: UserRow, id: number) {
    const row = await repo.byId(id);
    if (!row || row.store_id !== store.id) throw notFound();
    const post = (await repo.postsOf([row.post_id]))[0];
    if (!post) throw notFound();
    return { row, post };
  }

  const decided = () => new AppError(409, 'approval_decided', postApprovalJa.decided);

  /** Gives up a request in one of the states that end it, its targets with it. */
  async function end(
    r: PostApprovalsQueries,
    row: PostApprovalRow,
    to: 'rejected' | 'withdrawn' | 'expired',
    patch: Partial<PostApprovalRow>,
  ): Promise<boolean> {
    const at = now();
    if (!(await r.move(row.id, to, { ...patch, updated_at: at }))) return false;
    await r.moveTargets(row.post_id, 'not_approved', at);
    return true;
  }

  /**
   * Approves: the claim, the targets scheduled and their jobs queued, one transaction. A post
   * whose date passed while it waited goes out at once; one whose removal date passed cannot be
   * approved (422).
   */
  async function approve(actor: Who, store: UserRow, id: number) {
    const { row, post } = await requestOf(store, id);
    if (row.author_id === actor.id)
      throw new AppError(409, 'own_request', postApprovalJa.ownRequest);
    if (!mayDecide(actor, store.id)) throw notFound();
    const at = clock.now();
    if (post.delete_at && new Date(post.delete_at) <= at)
      throw new AppError(422, 'past_delete_date', postApprovalJa.pastDeleteDate);
    await repo.transaction(async (r, trx) => {
      const claimed = await r.move(id, 'approved', {
        decided_by: actor.id,
        decided_by_email: actor.email,
        decided_at: at.toISOString(),
        updated_at: at.toISOString(),
      });
      if (!claimed) throw decided();
      const due = new Date(Math.max(new Date(post.publish_at).getTime(), at.getTime()));
      for (const t of await r.moveTargets(post.id, 'scheduled', at.toISOString())) {
        const job = jobOf(t);
        await queue.enqueue(PUBLISH_QUEUE, job, { key: t.idempotency_key, runAt: due, trx });
        if (t.remove_at)
          await queue.enqueue(REMOVE_QUEUE, job, {
            key: removeKeyOf(t.idempotency_key),
            runAt: new Date(t.remove_at),
            trx,
          });
      }
      await tellAuthor(row, post, store, 'approved', actor.email, null, trx);
    });
    await auditDecision(deps, actor, post, store, 'auditApproved', { approval_id: id });
    return {
      post: await deps.onePost(post.id, [store.id]),
      message:
        new Date(post.publish_at) <= at ? postApprovalJa.approvedNow : postApprovalJa.approved,
    };
  }

  async function reject(actor: Who, store: UserRow, id: number, note: string) {
    const { row, post } = await requestOf(store, id);
    if (row.author_id === actor.id)
      throw new AppError(409, 'own_request', postApprovalJa.ownRequest);
    if (!mayDecide(actor, store.id)) throw notFound();
    const at = now();
    await repo.transaction(async (r, trx) => {
      const ok = await end(r, row, 'rejected', {
        decided_by: actor.id,
        decided_by_email: actor.email,
        decided_at: at,
        note: note || null,
      });
      if (!ok) throw decided();
      await tellAuthor(row, post, store, 'rejected', actor.email, note || null, trx);
    });
    await auditDecision(deps, actor, post, store, 'auditRejected', { approval_id: id, note });
    return deps.onePost(post.id, [store.id]);
  }

  async function withdraw(actor: Who, store: UserRow, id: number) {
    const { row, post } = await requestOf(store, id);
    if (row.author_id !== actor.id) throw new AppError(403, 'not_author', postApprovalJa.notAuthor);
    const ok = await repo.transaction((r) => end(r, row, 'withdrawn', {}));
    if (!ok) throw decided();
    await auditDecision(deps, actor, post, store, 'auditWithdrawn', { approval_id: id });
    return deps.onePost(post.id, [store.id]);
  }

  /** A held post deleted: its request ends with it (nobody is asked to approve a deleted post). */
  async function removed(postId: number): Promise<void> {
    const row = (await repo.latestFor([postId])).get(postId);
    if (row?.state === 'pending')
      await repo.move(row.id, 'withdrawn', { updated_at: now(), note: null });
  }

  const sweep = createSweep(deps, end, tellAuthor);
  const list = (viewer: Who, storeIds: number[], q: PostApprovalListQuery) =>
    listOf(deps, viewer, storeIds, q);

  return { held, open, approve, reject, withdraw, removed, sweep, list };
}
