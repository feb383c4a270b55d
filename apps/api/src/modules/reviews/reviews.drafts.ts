import {
  BUILTIN_REPLY_TEMPLATES,
  pickReplyTemplate,
  renderReplyTemplate,
  REPLY_TEMPLATES_PER_BAND_MAX,
  reviewTemplateJa,
  ROLE,
  STAR_BANDS,
  starBandOf,
  type ReplyTemplateList,
  type ReplyTemplateScope,
  type ReplyTemplateView,
  type ReviewDraft,
  type ReviewDraftSource,
  type StarBand,
} from '@tenpo/domain';
import type { UserRow } from '../../db/types';
import { iso, type Clock } from '../../lib/clock';
import { AppError, notFound, validationError } from '../../lib/errors';
import type { LlmClient } from '../../llm/llm.client';
import { buildReplyPrompt } from '../../llm/reply-prompt';
import { mayAct } from '../stores/access';
import { agencyOf } from './approvals.view';
import type { DraftsRepo, ReplyTemplateRow } from './reviews.drafts.repo';
import type { ReviewsService } from './reviews.service';

export type DraftsServiceDeps = {
  repo: DraftsRepo;
  reviews: Pick<ReviewsService, 'rowOf' | 'check' | 'ruleSetsOf'>;
  /** The model's client; null when LLM_BASE_URL is not configured (drafts from templates only). */
  llm: LlmClient | null;
  clock: Clock;
  /** In [0, 1); a test may fix it. */
  random?: () => number;
};

export type DraftsService = ReturnType<typeof createDraftsService>;

type Viewer = UserRow;

const agencyOnly = () => new AppError(403, 'forbidden', reviewTemplateJa.agencyOnly);

/**
 * Reply templates and drafts (issue 25 item 4, ADR 0091). The templates serving a store are its
 * own and its agency's (an agency's serve every store of the agency), the built-in ones for a
 * band with neither. A draft is made, checked and returned, never sent: the user edits it and
 * sends it through `POST /reviews/{id}/reply`, which checks it again.
 */
export function createDraftsService(deps: DraftsServiceDeps) {
  const { repo, clock } = deps;
  const random = deps.random ?? Math.random;

  /** The store's own id and its agency's (none for an independent shop). */
  const ownersOf = (store: UserRow) => {
    const agency = agencyOf(store);
    return { store: store.id, agency, all: agency === null ? [store.id] : [store.id, agency] };
  };

  /** May the viewer change this template? The store's: who may write the store; the agency's: it. */
  const editable = (viewer: Viewer, store: UserRow, row: ReplyTemplateRow) =>
    row.owner_id === agencyOf(store)
      ? viewer.role === ROLE.agency && viewer.id === row.owner_id
      : mayAct(viewer, store, 'write', false);

  const viewOf = (viewer: Viewer, store: UserRow, row: ReplyTemplateRow): ReplyTemplateView => ({
    id: row.id,
    key: String(row.id),
    star_band: row.star_band as StarBand,
    body: row.body,
    source: row.owner_id === agencyOf(store) ? 'agency' : 'store',
    editable: editable(viewer, store, row),
    updated_at: row.updated_at,
  });

  const builtinOf = (band: StarBand): ReplyTemplateView[] =>
    BUILTIN_REPLY_TEMPLATES.filter((b) => b.star_band === band).map((b) => ({
      id: null,
      key: b.key,
      star_band: b.star_band,
      body: b.body,
      source: 'builtin',
      editable: false,
      updated_at: null,
    }));

  /** Per band: the store's own, then its agency's; else the built-in ones. */
  async function serving(viewer: Viewer, store: UserRow): Promise<ReplyTemplateView[]> {
    const owners = ownersOf(store);
    const rows = await repo.templatesOf(owners.all);
    const views = rows.map((r) => viewOf(viewer, store, r));
    return STAR_BANDS.flatMap((band) => {
      const mine = views.filter((v) => v.star_band === band);
      const own = mine.filter((v) => v.source === 'store');
      const agency = mine.filter((v) => v.source === 'agency');
      return mine.length > 0 ? [...own, ...agency] : builtinOf(band);
    });
  }

  async function list(viewer: Viewer, store: UserRow): Promise<ReplyTemplateList> {
    return {
      templates: await serving(viewer, store),
      llm_enabled: deps.llm !== null,
      can_edit: mayAct(viewer, store, 'write', false),
      can_edit_agency: viewer.role === ROLE.agency && agencyOf(store) === viewer.id,
    };
  }

  async function roomFor(ownerId: number, band: StarBand) {
    if ((await repo.countOf(ownerId, band)) >= REPLY_TEMPLATES_PER_BAND_MAX)
      throw validationError({ body: [reviewTemplateJa.tooMany] });
  }

  async function create(
    viewer: Viewer,
    store: UserRow,
    input: { star_band: StarBand; body: string; scope: ReplyTemplateScope },
  ): Promise<ReplyTemplateView> {
    let owner = store.id;
    if (input.scope === 'agency') {
      if (viewer.role !== ROLE.agency || agencyOf(store) !== viewer.id) throw agencyOnly();
      owner = viewer.id;
    }
    await roomFor(owner, input.star_band);
    const now = iso(clock.now());
    const row = await repo.insert({
      owner_id: owner,
      star_band: input.star_band,
      body: input.body,
      created_at: now,
      updated_at: now,
    });
    return viewOf(viewer, store, row);
  }

  /** The template, when it serves the store (its own or its agency's); else 404. */
  async function templateOf(viewer: Viewer, store: UserRow, id: number) {
    const row = await repo.byId(id);
    if (!row || !ownersOf(store).all.includes(row.owner_id)) throw notFound();
    if (!editable(viewer, store, row)) throw agencyOnly();
    return row;
  }

  async function update(
    viewer: Viewer,
    store: UserRow,
    id: number,
    patch: { star_band?: StarBand | undefined; body?: string | undefined },
  ): Promise<ReplyTemplateView> {
    const row = await templateOf(viewer, store, id);
    if (patch.star_band !== undefined && patch.star_band !== row.star_band)
      await roomFor(row.owner_id, patch.star_band);
    const updated = await repo.update(row.id, {
      ...(patch.star_band !== undefined ? { star_band: patch.star_band } : {}),
      ...(patch.body !== undefined ? { body: patch.body } : {}),
      updated_at: iso(clock.now()),
    });
    if (!updated) throw notFound();
    return viewOf(viewer, store, updated);
  }

  async function remove(viewer: Viewer, store: UserRow, id: number): Promise<{ id: number }> {
    const row = await templateOf(viewer, store, id);
    await repo.remove(row.id);
    return { id: row.id };
  }

  /**
   * A draft reply to the review: a template of its band, rendered for it (never the one the
   * store drew last for the band when there is another), or the model's (409 when off). Checked
   * as a send would be; nothing is sent.
   */
  async function draft(
    viewer: Viewer,
    store: UserRow,
    reviewId: number,
    source: ReviewDraftSource,
  ): Promise<ReviewDraft> {
    const row = await deps.reviews.rowOf([store.id], reviewId);
    const storeName = store.store_name ?? row.store_name ?? '';
    let made: Pick<ReviewDraft, 'comment' | 'template_id' | 'template_key' | 'model'>;
    if (source === 'llm') {
      if (!deps.llm) throw new AppError(409, 'llm_not_configured', reviewTemplateJa.llmOff);
      const sets = await deps.reviews.ruleSetsOf(store);
      const answer = await deps.llm.complete(
        buildReplyPrompt({
          storeName,
          starRating: row.star_rating,
          reviewText: row.comment,
          medical: sets.includes('medical_ad'),
        }),
      );
      made = {
        comment: answer.content,
        template_id: null,
        template_key: null,
        model: answer.model,
      };
    } else {
      const band = starBandOf(row.star_rating);
      const candidates = (await serving(viewer, store)).filter((t) => t.star_band === band);
      const picked = pickReplyTemplate(candidates, await repo.lastUsed(store.id, band), random);
      if (!picked) throw notFound();
      await repo.markUsed(store.id, band, picked.key, iso(clock.now()));
      made = {
        comment: renderReplyTemplate(picked.body, {
          reviewerName: row.reviewer_name,
          isAnonymous: row.is_anonymous === 1,
          storeName,
        }),
        template_id: picked.id,
        template_key: picked.key,
        model: null,
      };
    }
    const checked = await deps.reviews.check(store, made.comment, row.id);
    return { ...made, source, rule_sets: checked.rule_sets, findings: checked.findings };
  }

  return { list, create, update, remove, draft };
}
