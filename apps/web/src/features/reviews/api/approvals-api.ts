import type {
  ApprovalItemView,
  ApprovalSettingsView,
  Page,
  ReviewApprovalView,
  ReviewView,
} from '@tenpo/domain';
import { api } from '@/lib/api-client';
import { storeId } from './reviews-api';

/** The calls of replies' approval (ADR 0093, docs/product/reviews.md). */

export const approvalKeys = {
  all: ['reviews', 'approvals'] as const,
  queue: (ids: readonly number[]) => ['reviews', 'approvals', 'queue', ids.join(',')] as const,
  settings: (userId: number) => ['reviews', 'approvals', 'settings', userId] as const,
};

/** Ask for approval of a reply (the store's agency requires it). */
export const requestApprovalCall = (review: ReviewView, comment: string, override: boolean) =>
  api<ReviewView>(`/reviews/${review.id}/approvals`, {
    method: 'POST',
    body: { user_id: storeId(review.user_id), comment, override },
  });

/** Approve and send, with the text as the approver leaves it. */
export const approveCall = (
  approval: Pick<ReviewApprovalView, 'id' | 'user_id'>,
  comment: string | undefined,
  override: boolean,
) =>
  api<ReviewView>(`/reviews/approvals/${approval.id}/approve`, {
    method: 'POST',
    body: {
      user_id: storeId(approval.user_id),
      ...(comment === undefined ? {} : { comment }),
      override,
    },
  });

export const rejectCall = (approval: Pick<ReviewApprovalView, 'id' | 'user_id'>, note: string) =>
  api<ReviewView>(`/reviews/approvals/${approval.id}/reject`, {
    method: 'POST',
    body: { user_id: storeId(approval.user_id), note },
  });

export const withdrawCall = (approval: Pick<ReviewApprovalView, 'id' | 'user_id'>) =>
  api<ReviewView>(`/reviews/approvals/${approval.id}`, {
    method: 'DELETE',
    query: { user_id: approval.user_id },
  });

/** The open requests of the stores (pending, or failed at Google), newest first. */
export const approvalQueueCall = async (
  ids: readonly number[],
  signal?: AbortSignal,
): Promise<Page<ApprovalItemView>> =>
  (
    await api<{ data: Page<ApprovalItemView> }>('/reviews/approvals', {
      query: { user_id: ids.join(','), limit: 10 },
      signal,
    })
  ).data.data;

export const approvalSettingsCall = async (userId: number, signal?: AbortSignal) =>
  (
    await api<ApprovalSettingsView>('/reviews/approval-settings', {
      query: { user_id: userId },
      signal,
    })
  ).data;

export const saveApprovalSettingsCall = (agencyId: number, on: boolean) =>
  api<ApprovalSettingsView>('/reviews/approval-settings', {
    method: 'PUT',
    body: { user_id: storeId(agencyId), replies_need_approval: on },
  });
