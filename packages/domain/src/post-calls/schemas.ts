import { z } from 'zod';
import { storeIdList } from '../ids';
import { keysetPaged, keysetQuery } from '../paging/keyset';
import { PAGE_SIZE_OPTIONS } from '../paging/paging';
import { PUBLISHER_KEYS } from '../publishers/publishers';
import { formatTokyoDateTime, parseTokyoDateTime } from '../tokyo';
import { postApprovalSummarySchema } from './approvals';

/** Button types of spec 2 §3 (3 is unused). */
export const POST_BUTTON = {
  none: 0,
  book: 1,
  orderOnline: 2,
  learnMore: 4,
  signUp: 5,
  callNow: 6,
} as const;
export const POST_BUTTON_VALUES: readonly number[] = Object.values(POST_BUTTON);
/** Button types that carry a link (spec 2 §5: the link is then required, http(s)). */
export const POST_LINK_BUTTONS: readonly number[] = [
  POST_BUTTON.book,
  POST_BUTTON.orderOnline,
  POST_BUTTON.learnMore,
  POST_BUTTON.signUp,
];

/** Spec 2 §9: ten files per post, 20 MB each; the post list shows 5 a page by default. */
export const POST_MAX_FILES = 10;
export const POST_FILE_CAP_BYTES = 20 * 1024 * 1024;
export const POSTS_DEFAULT_PER_PAGE = 5;

/** The date format of the post form, read and shown in Asia/Tokyo (spec 2 §9). */
export const POST_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** `yyyy-MM-dd HH:mm:ss` in Tokyo → the instant, or null when it is no real date. */
export const parsePostDate = (text: string): Date | null => {
  const ms = parseTokyoDateTime(text);
  return ms === null ? null : new Date(ms);
};

/** The instant as `yyyy-MM-dd HH:mm:ss` in Tokyo. */
export const formatPostDate = (d: Date): string => formatTokyoDateTime(d);

export const POST_TARGET_STATES = [
  /** Held until another person approves the post (its agency's rule, ADR 0095): no job yet. */
  'awaiting_approval',
  /** Sent back, withdrawn or expired before approval: never sent. */
  'not_approved',
  'scheduled',
  'publishing',
  'published',
  'failed',
  'unknown',
  'removing',
  'removed',
] as const;
export type PostTargetStateName = (typeof POST_TARGET_STATES)[number];

/** One store × channel of a post, as the list shows it. */
export const postTargetSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  publisher_key: z.enum(PUBLISHER_KEYS),
  state: z.enum(POST_TARGET_STATES),
  /** When the state last changed (yyyy-MM-dd HH:mm:ss, Tokyo). */
  time: z.string(),
  published_at: z.string().nullable(),
  removed_at: z.string().nullable(),
  /** When the post is due to be removed from this channel; null: never (or cannot be). */
  remove_at: z.string().nullable(),
  url: z.string().nullable(),
  external_id: z.string().nullable(),
  error_kind: z.string().nullable(),
  errors: z.array(z.string()),
  attempts: z.number().int(),
  retryable: z.boolean(),
  /**
   * The provider posts this target became, in order (Facebook and X split photos from videos,
   * spec 2 §4): each one's id and link once live. Empty until the first is sent.
   */
  parts: z
    .array(
      z.object({
        external_id: z.string().nullable(),
        url: z.string().nullable(),
        state: z.enum(['pending', 'published', 'removed']),
      }),
    )
    .optional(),
});
export type PostTarget = z.infer<typeof postTargetSchema>;

/** The overall state a row shows: every target's, or "partially published". */
export const POST_STATES = [
  'awaiting_approval',
  'not_approved',
  'scheduled',
  'publishing',
  'published',
  'partially_published',
  'failed',
  'removed',
] as const;

export const postMediaSchema = z.object({
  url: z.string(),
  kind: z.enum(['photo', 'video']),
  mime: z.string(),
  bytes: z.number().int(),
});

/** Kinds of Google post (spec 2 §3 post types; ADR 0030): `whatNew` is news. */
export const POST_TOPIC_TYPES = ['news', 'event', 'offer'] as const;
export type PostTopicType = (typeof POST_TOPIC_TYPES)[number];
/** The spec's post-type filter of GET /posts (§3: all, offer, whatNew, event). */
export const POST_TYPE_FILTERS = ['all', 'offer', 'whatNew', 'event'] as const;
/** The path segment of the offers, events and news calls (spec 2 §7). */
export const POST_TOPIC_PATHS = { offers: 'offer', events: 'event', news: 'news' } as const;
export const postTopicSchema = z.object({
  title: z.string().nullable(),
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  coupon_code: z.string().nullable(),
  redeem_link: z.string().nullable(),
  terms: z.string().nullable(),
});
export type PostTopicView = z.infer<typeof postTopicSchema>;

export const postSchema = z.object({
  id: z.number().int(),
  submission_id: z.string(),
  user_id: z.number().int(),
  content: z.string(),
  button_type: z.number().int(),
  button_link: z.string().nullable(),
  phone_number: z.string().nullable(),
  shared_sns_type: z.string(),
  publish_date: z.string(),
  delete_date: z.string().nullable(),
  created_at: z.string(),
  media_url: z.array(z.string()),
  medias: z.array(postMediaSchema),
  state: z.enum(POST_STATES),
  targets: z.array(postTargetSchema),
  /** ADR 0030: news (what's new, a plain post), event or offer; the topic's fields or null. */
  post_type: z.enum(['news', 'event', 'offer']).optional(),
  topic: postTopicSchema.nullable().optional(),
  /**
   * The post's request for approval while it waits or after it was not approved (ADR 0095);
   * null otherwise (no approval needed, or approved: then its targets tell the rest).
   */
  approval: postApprovalSummarySchema.nullable().optional(),
});
export type PostView = z.infer<typeof postSchema>;

export const postListQuery = z.object({
  user_id: storeIdList,
  limit: z.coerce
    .number()
    .int()
    .refine((n) => (PAGE_SIZE_OPTIONS as readonly number[]).includes(n))
    .default(POSTS_DEFAULT_PER_PAGE),
  page: z.coerce.number().int().min(1).default(1),
  post_key_search: z.string().max(200).optional(),
  post_type: z.enum(POST_TYPE_FILTERS).default('all'),
  // Keyset paging (ADR 0098): the cursor of the page before or after, newest first.
  ...keysetQuery.shape,
});
/** GET /posts/{offers|events|news}: 10 a page by default (spec 2 §9). */
export const postTopicListQuery = postListQuery.omit({ post_type: true }).extend({
  limit: z.coerce
    .number()
    .int()
    .refine((n) => (PAGE_SIZE_OPTIONS as readonly number[]).includes(n))
    .default(10),
});

export const postOneQuery = z.object({ user_id: storeIdList });

/** The spec's page (`current_page`, `last_page`, `total`…) with `next_cursor` and `prev_cursor`. */
export const postListResponse = z.object({ data: keysetPaged(postSchema) });
export const postCreatedSchema = z.object({
  submission_id: z.string(),
  /** The submission's posts, one per store, and how many of them wait for approval. */
  post_count: z.number().int(),
  held_count: z.number().int(),
  /** The first 20 of them (the answer does not grow with the stores). */
  posts: z.array(postSchema),
  notes: z.array(z.string()),
});
