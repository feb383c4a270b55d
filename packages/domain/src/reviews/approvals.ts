import { z } from 'zod';
import { idField, storeIdList } from '../ids';
import { keysetPaged, keysetQuery } from '../paging/keyset';
import { PAGE_SIZE_OPTIONS } from '../paging/paging';
import { REVIEW_REPLY_STATES } from './reply-states';

/**
 * A reply's way through approval (issue 25 item 6, ADR 0093): written and sent for approval
 * (`pending`), then `approved` and at once `sent` to Google, or `rejected` with a note, or
 * `withdrawn` by its author, or `expired` when nobody decided in time. A send Google refused
 * (`failed`) can be approved again. Once sent, Google's moderation is the review's reply state.
 */
export const APPROVAL_STATES = [
  'pending',
  'approved',
  'sent',
  'failed',
  'rejected',
  'withdrawn',
  'expired',
] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];

/** States in which a request still waits for a decision (or, `failed`, for a second send). */
export const OPEN_APPROVAL_STATES: readonly ApprovalState[] = ['pending', 'failed'];

/** A request nobody decided on within this many days expires (its author is told). */
export const APPROVAL_EXPIRY_DAYS = 7;
export const APPROVAL_NOTE_MAX = 500;

export const reviewApprovalSchema = z.object({
  id: z.number().int(),
  review_id: z.number().int(),
  user_id: z.number().int(),
  state: z.enum(APPROVAL_STATES),
  comment: z.string(),
  /** The author ticked the override of a blocking finding; the approver sees it. */
  override: z.boolean(),
  author_email: z.string(),
  /** May the caller decide on it (an approver other than its author)? */
  can_decide: z.boolean(),
  /** May the caller withdraw it (its author, while it waits)? */
  can_withdraw: z.boolean(),
  decided_by_email: z.string().nullable(),
  decided_at: z.string().nullable(),
  /** Why it was sent back (rejected), or why Google refused the send (failed). */
  note: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
  sent_at: z.string().nullable(),
  /** After the send: Google's moderation of the reply (pending, live, rejected), else null. */
  google_state: z.enum(REVIEW_REPLY_STATES).nullable(),
});
export type ReviewApprovalView = z.infer<typeof reviewApprovalSchema>;

/** `POST /reviews/{id}/approvals`: ask for approval of a reply (replaces the author's own open one). */
export const approvalRequestBody = z.object({
  user_id: idField(),
  comment: z.string(),
  override: z.boolean().default(false),
});

/** `POST /reviews/approvals/{id}/approve`: the approver may edit the text before it goes out. */
export const approvalApproveBody = z.object({
  user_id: idField(),
  comment: z.string().optional(),
  override: z.boolean().default(false),
});

export const approvalRejectBody = z.object({
  user_id: idField(),
  note: z.string().trim().max(APPROVAL_NOTE_MAX).default(''),
});

export const approvalWithdrawQuery = z.object({ user_id: idField() });

/**
 * A queue of requests (replies' or posts'): of one store or several, newest first; `state` open
 * (waiting for a decision, the default) or one state.
 */
export const approvalQueueQuery = <S extends readonly string[]>(states: S) =>
  z.object({
    user_id: storeIdList,
    state: z.enum(['open', ...states]).default('open'),
    limit: z.coerce
      .number()
      .int()
      .refine((n) => (PAGE_SIZE_OPTIONS as readonly number[]).includes(n))
      .default(10),
    page: z.coerce.number().int().min(1).default(1),
  });

/** `GET /reviews/approvals`: by `page`, or by cursor (ADR 0098), newest first. */
export const approvalListQuery = approvalQueueQuery(APPROVAL_STATES).extend(keysetQuery.shape);
export type ApprovalListQuery = z.infer<typeof approvalListQuery>;

export const approvalItemSchema = reviewApprovalSchema.extend({
  store_name: z.string(),
  review_star_rating: z.number().int(),
  review_comment: z.string().nullable(),
  reviewer_name: z.string(),
});
export type ApprovalItemView = z.infer<typeof approvalItemSchema>;
export const approvalListResponse = z.object({ data: keysetPaged(approvalItemSchema) });

/** An agency's rule: its stores' replies go out only once approved (off by default). */
export const approvalSettingsSchema = z.object({
  /** The agency whose rule this is; null for a store without an agency (no approval). */
  agency_id: z.number().int().nullable(),
  replies_need_approval: z.boolean(),
  /** Its stores' posts are held until approved (ADR 0095). */
  posts_need_approval: z.boolean(),
  /** May the caller change it (the agency itself, or a manager)? */
  can_edit: z.boolean(),
});
export type ApprovalSettingsView = z.infer<typeof approvalSettingsSchema>;
export const approvalSettingsQuery = z.object({ user_id: idField() });
/** Either rule or both; one left out keeps its value. */
export const approvalSettingsBody = z.object({
  user_id: idField(),
  replies_need_approval: z.boolean().optional(),
  posts_need_approval: z.boolean().optional(),
});
