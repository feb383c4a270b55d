import { z } from 'zod';
import { idField } from '../ids';
import { paged } from '../paging/paging';

/**
 * In-app notices (issue 25 item 2, ADR 0094): what happened that a user should see next time they
 * look, kept per user — new reviews, requests for approval and their outcome, low-rating bursts.
 */
export const NOTICE_KINDS = [
  'reviews_new',
  'approval_requested',
  'approval_decided',
  'reviews_spike',
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** How a user hears of new reviews by mail: at once (the default), once a day, or not at all. */
export const REVIEW_MAIL_MODES = ['immediate', 'daily', 'off'] as const;
export type ReviewMailMode = (typeof REVIEW_MAIL_MODES)[number];

/** The daily digest goes out at this hour, Tokyo. */
export const REVIEW_DIGEST_HOUR = 8;
export const NOTICES_PER_PAGE = 20;

export const noticeSchema = z.object({
  id: z.number().int(),
  kind: z.enum(NOTICE_KINDS),
  /** The store it is about, when one. */
  store_id: z.number().int().nullable(),
  title: z.string(),
  body: z.string(),
  /** Where the screen takes the user (a path of the app, with its query). */
  link: z.string(),
  created_at: z.string(),
  read_at: z.string().nullable(),
});
export type NoticeView = z.infer<typeof noticeSchema>;

export const noticeListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(50).default(NOTICES_PER_PAGE),
  unread: z.enum(['0', '1']).default('0'),
});
export const noticeListResponse = z.object({
  data: paged(noticeSchema),
  unread: z.number().int(),
});

/** `POST /notices/read`: the ids read, or all of the user's when absent. */
export const noticeReadBody = z.object({ ids: z.array(idField()).max(100).optional() });

export const noticeSettingsSchema = z.object({ review_mail: z.enum(REVIEW_MAIL_MODES) });
export type NoticeSettingsView = z.infer<typeof noticeSettingsSchema>;
