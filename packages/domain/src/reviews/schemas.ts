import { z } from 'zod';
import { commaParts, idField, storeIdList } from '../ids';
import { keysetPaged, keysetQuery } from '../paging/keyset';
import { PAGE_SIZE_OPTIONS } from '../paging/paging';
import { reviewApprovalSchema } from './approvals';
import { REVIEW_REPLY_STATES } from './reply-states';

/** The inbox shows 10 reviews a page unless the user picks 5, 25 or 50. */
export const REVIEWS_DEFAULT_PER_PAGE = 10;
/** Google's limit on a reply (ReviewReply.comment): 4,096 bytes; we count characters of UTF-8. */
export const REVIEW_REPLY_MAX_BYTES = 4096;
export const REVIEW_SEARCH_MAX = 200;

export const REVIEW_REPLIED_FILTERS = ['all', 'unreplied', 'replied'] as const;
export type ReviewRepliedFilter = (typeof REVIEW_REPLIED_FILTERS)[number];

export { REVIEW_REPLY_STATES, type ReviewReplyState } from './reply-states';

const starList = z
  .string()
  .transform((s) => commaParts(s).map(Number))
  .pipe(z.array(z.number().int().min(1).max(5)).max(5));

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** `GET /reviews`: the reviews of one store or several, newest first. */
export const reviewListQuery = z.object({
  user_id: storeIdList,
  limit: z.coerce
    .number()
    .int()
    .refine((n) => (PAGE_SIZE_OPTIONS as readonly number[]).includes(n))
    .default(REVIEWS_DEFAULT_PER_PAGE),
  page: z.coerce.number().int().min(1).default(1),
  /** Star ratings to keep, comma-separated (`1,2`); all when absent. */
  stars: starList.optional(),
  replied: z.enum(REVIEW_REPLIED_FILTERS).default('all'),
  /** Written on or after this day, and on or before `date_to` (yyyy-MM-dd, Tokyo). */
  date_from: isoDate.optional(),
  date_to: isoDate.optional(),
  /** Words in the review's text or the reviewer's name. */
  q: z.string().trim().max(REVIEW_SEARCH_MAX).optional(),
  // Keyset paging (ADR 0098, amended 2026-11-29): the cursor of the page before or after.
  ...keysetQuery.shape,
});
export type ReviewListQuery = z.infer<typeof reviewListQuery>;

export const reviewOneQuery = z.object({ user_id: storeIdList });

export const reviewMediaSchema = z.object({
  thumbnail_url: z.string(),
  video_url: z.string().nullable(),
});

export const reviewReplySchema = z.object({
  comment: z.string(),
  updated_at: z.string(),
  state: z.enum(REVIEW_REPLY_STATES),
  /** Google's reason when it rejected the reply (PolicyViolation), else null. */
  policy_violation: z.string().nullable(),
});

export const reviewSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  store_name: z.string(),
  /** The reviewer's name as Google shows it; empty when the reviewer is anonymous. */
  reviewer_name: z.string(),
  reviewer_photo_url: z.string().nullable(),
  is_anonymous: z.boolean(),
  star_rating: z.number().int().min(1).max(5),
  comment: z.string().nullable(),
  media: z.array(reviewMediaSchema),
  /** When the review was written and last changed (ISO 8601, as Google gives them). */
  created_at: z.string(),
  updated_at: z.string(),
  reply: reviewReplySchema.nullable(),
  /** Google's own page to reply on (reviewReplyUrl), when it gives one. */
  review_reply_url: z.string().nullable(),
  /** Replies to this store's reviews go out only once approved (its agency's rule, ADR 0093). */
  approval_required: z.boolean(),
  /** The latest request for approval of a reply to this review, while it matters, else null. */
  approval: reviewApprovalSchema.nullable(),
});
export type ReviewView = z.infer<typeof reviewSchema>;

export const reviewListResponse = z.object({
  data: keysetPaged(reviewSchema).extend({
    /** More matched than were counted: `total` is a floor (「10,000件以上」). */
    total_at_least: z.boolean().optional(),
  }),
});

/** `POST /reviews/{id}/reply`: send (or replace) the store's reply on Google. */
export const reviewReplyBody = z.object({
  user_id: idField(),
  comment: z.string(),
  /** Send although the check found a blocking phrase; the audit log keeps who and why. */
  override: z.boolean().default(false),
});

/**
 * `POST /reviews/check`: the compliance check of a reply text, for the store's industry; with
 * `review_id`, also for that review's reviewer (their name in the reply), as the send checks.
 */
export const reviewCheckBody = z.object({
  user_id: idField(),
  comment: z.string(),
  review_id: idField().optional(),
});
