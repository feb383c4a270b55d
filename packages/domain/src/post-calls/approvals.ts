import { z } from 'zod';
import { idField } from '../ids';
import { keysetPaged, keysetQuery } from '../paging/keyset';
import { APPROVAL_EXPIRY_DAYS, APPROVAL_NOTE_MAX, approvalQueueQuery } from '../reviews/approvals';

/**
 * A post's way through approval (issue 25 item 6: "and posts, reusing the same flow"; ADR 0095).
 * With its agency's rule on, a store's post is made `pending`: its targets wait
 * (`awaiting_approval`) and no job is queued. Another person approves it (`approved`: the targets
 * become `scheduled` and their jobs are queued in the same transaction, so the post goes out on
 * its date, or at once when the date has passed), or sends it back (`rejected`, with a note); the
 * author may withdraw it; nobody deciding within the days, or before its removal date, makes it
 * `expired`. A post not approved is never sent (its targets end `not_approved`).
 */
export const POST_APPROVAL_STATES = [
  'pending',
  'approved',
  'rejected',
  'withdrawn',
  'expired',
] as const;
export type PostApprovalState = (typeof POST_APPROVAL_STATES)[number];
export const POST_APPROVAL_EXPIRY_DAYS = APPROVAL_EXPIRY_DAYS;

export const postApprovalSchema = z.object({
  id: z.number().int(),
  post_id: z.number().int(),
  user_id: z.number().int(),
  state: z.enum(POST_APPROVAL_STATES),
  author_email: z.string(),
  /** May the caller decide on it (an approver other than its author)? */
  can_decide: z.boolean(),
  /** May the caller withdraw it (its author, while it waits)? */
  can_withdraw: z.boolean(),
  decided_by_email: z.string().nullable(),
  decided_at: z.string().nullable(),
  /** Why it was sent back. */
  note: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
});
export type PostApprovalView = z.infer<typeof postApprovalSchema>;
/** The request a post shows (`PostView.approval`): without the caller's rights, which the queue gives. */
export const postApprovalSummarySchema = postApprovalSchema.omit({
  can_decide: true,
  can_withdraw: true,
});
export type PostApprovalSummary = z.infer<typeof postApprovalSummarySchema>;

/** `POST /posts/approvals/{id}/approve`. */
export const postApprovalApproveBody = z.object({ user_id: idField() });
/** `POST /posts/approvals/{id}/reject`. */
export const postApprovalRejectBody = z.object({
  user_id: idField(),
  note: z.string().trim().max(APPROVAL_NOTE_MAX).default(''),
});
export const postApprovalWithdrawQuery = z.object({ user_id: idField() });

/** `GET /posts/approvals`: open is `pending`; by `page`, or by cursor (ADR 0098), newest first. */
export const postApprovalListQuery = approvalQueueQuery(POST_APPROVAL_STATES).extend(
  keysetQuery.shape,
);
export type PostApprovalListQuery = z.infer<typeof postApprovalListQuery>;

/** A request as the queue lists it: with what the approver needs to judge the post. */
export const postApprovalItemSchema = postApprovalSchema.extend({
  store_name: z.string(),
  content: z.string(),
  /** Comma-separated publisher keys, as the post's `shared_sns_type`. */
  shared_sns_type: z.string(),
  /** yyyy-MM-dd HH:mm:ss, Tokyo. */
  publish_date: z.string(),
  delete_date: z.string().nullable(),
  media_url: z.array(z.string()),
  post_type: z.enum(['news', 'event', 'offer']),
  title: z.string().nullable(),
});
export type PostApprovalItemView = z.infer<typeof postApprovalItemSchema>;
export const postApprovalListResponse = z.object({ data: keysetPaged(postApprovalItemSchema) });
