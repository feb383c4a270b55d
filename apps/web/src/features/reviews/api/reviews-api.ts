import type {
  ComplianceFinding,
  KeysetPage,
  ReviewRepliedFilter,
  ReviewView,
  RuleSetId,
} from '@tenpo/domain';
import { api } from '@/lib/api-client';

/** The calls of the reviews inbox (issue 25, docs/product/reviews.md). */

/** What the list shows: the filters of `GET /reviews`, as the screen's URL keeps them. */
export type ReviewFilters = {
  /** Star ratings kept (1–5, ascending); all when empty. */
  stars: number[];
  replied: ReviewRepliedFilter;
  /** Written on or after / on or before these Tokyo days (yyyy-MM-dd); '' for no bound. */
  from: string;
  to: string;
  q: string;
  page: number;
  perPage: number;
};

/** With the cursor of the page next to the one shown, when the pager moved by one (ADR 0098). */
export type ReviewListQuery = ReviewFilters & {
  ids: readonly number[];
  after?: string | undefined;
  before?: string | undefined;
};

export type FindingSeverity = ComplianceFinding['severity'];
/** One finding of the compliance check (`POST /reviews/check`), as the domain's rules give it. */
export type ReviewFinding = ComplianceFinding;

export type ReviewCheck = { rule_sets: RuleSetId[]; findings: ReviewFinding[] };

export const reviewKeys = {
  all: ['reviews'] as const,
  lists: ['reviews', 'list'] as const,
  list: (q: ReviewListQuery) => ['reviews', 'list', q] as const,
  check: (reviewId: number, comment: string) => ['reviews', 'check', reviewId, comment] as const,
};

/** The body's `data.data` is the page, and `data.data.data` its rows (as /posts). */
export const reviewsCall = async (
  q: ReviewListQuery,
  signal?: AbortSignal,
): Promise<KeysetPage<ReviewView> & { total_at_least?: boolean }> =>
  (
    await api<{ data: KeysetPage<ReviewView> & { total_at_least?: boolean } }>('/reviews', {
      query: {
        user_id: q.ids.join(','),
        limit: q.perPage,
        page: q.page,
        after: q.after,
        before: q.before,
        stars: q.stars.length > 0 ? q.stars.join(',') : undefined,
        replied: q.replied,
        date_from: q.from || undefined,
        date_to: q.to || undefined,
        q: q.q.trim() || undefined,
      },
      signal,
    })
  ).data.data;

/** The store's id as the reviews bodies take it (a string of digits). */
export const storeId = (userId: number) => String(userId);

export const checkReplyCall = async (
  review: { id: number; user_id: number },
  comment: string,
  signal?: AbortSignal,
): Promise<ReviewCheck> =>
  (
    await api<ReviewCheck>('/reviews/check', {
      method: 'POST',
      body: { user_id: storeId(review.user_id), review_id: review.id, comment },
      signal,
    })
  ).data;

export const replyCall = (review: ReviewView, comment: string, override: boolean) =>
  api<ReviewView>(`/reviews/${review.id}/reply`, {
    method: 'POST',
    body: { user_id: storeId(review.user_id), comment, override },
  });

export const deleteReplyCall = (review: ReviewView) =>
  api<ReviewView>(`/reviews/${review.id}/reply`, {
    method: 'DELETE',
    query: { user_id: review.user_id },
  });
