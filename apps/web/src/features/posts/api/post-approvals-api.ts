import type {
  ApprovalSettingsView,
  Page,
  PostApprovalItemView,
  PostApprovalView,
} from '@tenpo/domain';
import { api } from '@/lib/api-client';
import type { PostRow } from './posts-api';

/** The calls of posts' approval (ADR 0095): the queue on /posts and its decisions. */

export const postApprovalKeys = {
  all: ['posts', 'approvals'] as const,
  queue: (ids: readonly number[]) => ['posts', 'approvals', 'queue', ids.join(',')] as const,
};

type Request = Pick<PostApprovalView, 'id' | 'user_id'>;

/** The open (pending) requests of the stores, newest first. */
export const postApprovalQueueCall = async (
  ids: readonly number[],
  signal?: AbortSignal,
): Promise<Page<PostApprovalItemView>> =>
  (
    await api<{ data: Page<PostApprovalItemView> }>('/posts/approvals', {
      query: { user_id: ids.join(','), state: 'open', limit: 10, page: 1 },
      signal,
    })
  ).data.data;

/** Approve: the post's targets are scheduled (or go out at once when the date has passed). */
export const approvePostCall = (a: Request) =>
  api<PostRow>(`/posts/approvals/${a.id}/approve`, {
    method: 'POST',
    body: { user_id: String(a.user_id) },
  });

/** Send back, with an optional note (≤ APPROVAL_NOTE_MAX). */
export const rejectPostCall = (a: Request, note: string) =>
  api<PostRow>(`/posts/approvals/${a.id}/reject`, {
    method: 'POST',
    body: { user_id: String(a.user_id), note },
  });

/** Its author withdraws it: the post is never sent. */
export const withdrawPostCall = (a: Request) =>
  api<PostRow>(`/posts/approvals/${a.id}`, {
    method: 'DELETE',
    query: { user_id: a.user_id },
  });

/** The agency's rule for posts; the replies' rule is left as it is. */
export const savePostApprovalSettingCall = (agencyId: number, on: boolean) =>
  api<ApprovalSettingsView>('/reviews/approval-settings', {
    method: 'PUT',
    body: { user_id: String(agencyId), posts_need_approval: on },
  });

/**
 * The approval rules of a store's agency, or of the agency itself (ADR 0093, 0095): read once
 * per id and kept a while, the post form and the switch share it.
 */
export const postApprovalSettingsKey = (userId: number) =>
  ['post-approval-settings', userId] as const;

export const postApprovalSettingsCall = async (userId: number, signal?: AbortSignal) =>
  (
    await api<ApprovalSettingsView>('/reviews/approval-settings', {
      query: { user_id: userId },
      signal,
    })
  ).data;
