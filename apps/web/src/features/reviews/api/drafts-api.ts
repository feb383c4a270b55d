import type {
  ReplyTemplateList,
  ReplyTemplateScope,
  ReplyTemplateView,
  ReviewDraft,
  ReviewDraftSource,
  StarBand,
} from '@tenpo/domain';
import { api } from '@/lib/api-client';

/** Reply templates and drafts (issue 25 item 4, ADR 0091, docs/product/reviews.md). */

export const draftKeys = {
  all: ['reviews', 'templates'] as const,
  templates: (storeId: number) => ['reviews', 'templates', storeId] as const,
};

/** The templates serving a store, and whether the model's drafts are on. */
export const templatesCall = async (
  storeId: number,
  signal?: AbortSignal,
): Promise<ReplyTemplateList> =>
  (await api<ReplyTemplateList>('/reviews/templates', { query: { user_id: storeId }, signal }))
    .data;

export type TemplateInput = { star_band: StarBand; body: string; scope: ReplyTemplateScope };

export const createTemplateCall = (storeId: number, input: TemplateInput) =>
  api<ReplyTemplateView>('/reviews/templates', {
    method: 'POST',
    body: { user_id: storeId, ...input },
  });

export const updateTemplateCall = (
  storeId: number,
  id: number,
  patch: { star_band?: StarBand; body?: string },
) =>
  api<ReplyTemplateView>(`/reviews/templates/${id}`, {
    method: 'PATCH',
    body: { user_id: storeId, ...patch },
  });

export const deleteTemplateCall = (storeId: number, id: number) =>
  api<{ id: number }>(`/reviews/templates/${id}`, {
    method: 'DELETE',
    query: { user_id: storeId },
  });

/** A draft reply to the review (never sent): from a template of its band, or from the model. */
export const draftCall = async (
  review: { id: number; user_id: number },
  source: ReviewDraftSource,
): Promise<ReviewDraft> =>
  (
    await api<ReviewDraft>(`/reviews/${review.id}/draft`, {
      method: 'POST',
      body: { user_id: review.user_id, source },
    })
  ).data;
