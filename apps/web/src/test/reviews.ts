import type { Page, ReviewView } from '@tenpo/domain';

/** A review of store 1 as `GET /reviews` answers it (docs/product/reviews.md). */
export const review = (id: number, over: Partial<ReviewView> = {}): ReviewView => ({
  id,
  user_id: 1,
  store_name: '青木ベーカリー 恵比寿店',
  reviewer_name: `投稿者${id}`,
  reviewer_photo_url: null,
  is_anonymous: false,
  star_rating: 4,
  comment: `口コミ${id}の本文`,
  media: [],
  created_at: '2026-04-01T00:00:00Z',
  updated_at: '2026-04-01T00:00:00Z',
  reply: null,
  review_reply_url: null,
  approval_required: false,
  approval: null,
  ...over,
});

/** The answer's `data`: `{ data: page }`, the page's rows in `data.data.data`. */
export const reviewPage = (
  rows: ReviewView[],
  page = 1,
  per = 10,
  total = rows.length,
): { data: Page<ReviewView> } => ({
  data: {
    data: rows,
    current_page: page,
    last_page: Math.max(1, Math.ceil(total / per)),
    total,
    per_page: per,
    from: rows.length ? (page - 1) * per + 1 : null,
    to: rows.length ? (page - 1) * per + rows.length : null,
  },
});

/** `GET /reviews/approvals` with no request waiting (the inbox's approval panel reads it). */
export const noApprovals = {
  'GET /reviews/approvals': { body: { status_code: 200, data: { data: reviewPage([]).data } } },
  // The reply editor's draft buttons read whether the model's drafts are on (ADR 0091).
  'GET /reviews/templates': {
    body: {
      status_code: 200,
      data: { templates: [], llm_enabled: false, can_edit: true, can_edit_agency: false },
    },
  },
};
