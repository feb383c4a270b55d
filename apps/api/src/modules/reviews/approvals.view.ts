import {
  OPEN_APPROVAL_STATES,
  REVIEW_REPLY_STATES,
  ROLE,
  type ApprovalState,
  type ReviewApprovalView,
  type ReviewReplyState,
} from '@tenpo/domain';
import type { UserRow } from '../../db/types';
import type { ApprovalRow } from './approvals.repo';

/** The agency whose approval rule a store follows: its own for an agency account. */
export const agencyOf = (s: Pick<UserRow, 'id' | 'role' | 'agency_id'>): number | null =>
  s.role === ROLE.agency ? s.id : s.agency_id;

/**
 * May this account decide on a store's requests? The store itself, an agency (its stores: the
 * route's access check) or a manager; not a group leader, who only reads its group's stores.
 */
export const mayDecide = (viewer: Pick<UserRow, 'id' | 'role'>, storeId: number): boolean =>
  viewer.id === storeId || viewer.role === ROLE.agency || viewer.role === ROLE.manager;

const isOpen = (state: string) => OPEN_APPROVAL_STATES.includes(state as ApprovalState);

/** A request as the API answers it, for this viewer; `replyState` is the review's at Google. */
export const approvalView = (
  a: ApprovalRow,
  viewer: Pick<UserRow, 'id' | 'role'>,
  replyState: string | null,
): ReviewApprovalView => ({
  id: a.id,
  review_id: a.review_id,
  user_id: a.store_id,
  state: a.state as ApprovalState,
  comment: a.comment,
  override: a.override === 1,
  author_email: a.author_email,
  can_decide: isOpen(a.state) && a.author_id !== viewer.id && mayDecide(viewer, a.store_id),
  can_withdraw: isOpen(a.state) && a.author_id === viewer.id,
  decided_by_email: a.decided_by_email,
  decided_at: a.decided_at,
  note: a.note,
  created_at: a.created_at,
  expires_at: a.expires_at,
  sent_at: a.sent_at,
  google_state:
    a.state === 'sent' && REVIEW_REPLY_STATES.includes(replyState as ReviewReplyState)
      ? (replyState as ReviewReplyState)
      : null,
});
