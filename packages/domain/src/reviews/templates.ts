import { z } from 'zod';
import { complianceFindingSchema, RULE_SET_IDS } from '../compliance/schemas';
import { idField } from '../ids';
import { reviewTemplateJa } from '../messages/reviews';
import {
  REPLY_TEMPLATE_MAX_BYTES,
  REPLY_TEMPLATE_VARIABLES,
  REPLY_TEMPLATES_PER_BAND_MAX,
} from './template-limits';

export { REPLY_TEMPLATE_MAX_BYTES, REPLY_TEMPLATE_VARIABLES, REPLY_TEMPLATES_PER_BAND_MAX };

/**
 * Reply templates (issue 25 item 4, ADR 0091): a store's, its agency's, or the built-in set,
 * by star band. A draft from a template is the band's template rendered for the review, never
 * the one the store drew last for that band when there is another.
 */
export const STAR_BANDS = ['low', 'mid', 'high'] as const;
export type StarBand = (typeof STAR_BANDS)[number];

/** ★1–2 low, ★3 mid, ★4–5 high. */
export const starBandOf = (stars: number): StarBand =>
  stars <= 2 ? 'low' : stars === 3 ? 'mid' : 'high';

/** Where a template comes from: the store's own, its agency's (all its stores), or Tenpo's. */
export const REPLY_TEMPLATE_SOURCES = ['store', 'agency', 'builtin'] as const;
export type ReplyTemplateSource = (typeof REPLY_TEMPLATE_SOURCES)[number];

/** Who a new template is for: the named store, or every store of the caller's agency. */
export const REPLY_TEMPLATE_SCOPES = ['store', 'agency'] as const;
export type ReplyTemplateScope = (typeof REPLY_TEMPLATE_SCOPES)[number];

/** How a draft is made. */
export const REVIEW_DRAFT_SOURCES = ['template', 'llm'] as const;
export type ReviewDraftSource = (typeof REVIEW_DRAFT_SOURCES)[number];

const encoder = new TextEncoder();
const bytesOf = (s: string) => encoder.encode(s).length;

const ALL_VARIABLES: readonly string[] = Object.values(REPLY_TEMPLATE_VARIABLES).flat();
/** `{…}` in a body: a variable, known or not (no spaces or braces inside, 1–30 characters). */
const PLACEHOLDER = /\{[^{}\s]{1,30}\}/gu;

/** The variables a body names that are not ours ({name}, {お名前}), each once. */
export const unknownReplyTemplateVariables = (body: string): string[] => [
  ...new Set(
    [...body.matchAll(PLACEHOLDER)].map((m) => m[0]).filter((v) => !ALL_VARIABLES.includes(v)),
  ),
];

/** What is wrong with a template's body, as the messages under the field (none: fine). */
export function replyTemplateBodyIssues(body: string): string[] {
  if (body.trim() === '') return [reviewTemplateJa.bodyRequired];
  const out: string[] = [];
  if (bytesOf(body) > REPLY_TEMPLATE_MAX_BYTES) out.push(reviewTemplateJa.bodyTooLong);
  const unknown = unknownReplyTemplateVariables(body);
  if (unknown.length > 0) out.push(reviewTemplateJa.unknownVariables(unknown.join('、')));
  return out;
}

/** A template body as requests carry it: trimmed, then judged by `replyTemplateBodyIssues`. */
export const replyTemplateBodyField = z
  .string({ error: reviewTemplateJa.bodyRequired })
  .transform((s) => s.trim())
  .superRefine((s, ctx) => {
    for (const message of replyTemplateBodyIssues(s)) ctx.addIssue({ code: 'custom', message });
  });

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
const variableRe = (names: readonly string[], after = '') =>
  new RegExp(`(?:${names.map(escapeRe).join('|')})${after}`, 'gu');
/** The reviewer's variable, with an honorific written after it (it brings its own). */
const REVIEWER_RE = variableRe(REPLY_TEMPLATE_VARIABLES.reviewer_name, '(?:様|さま)?'); // ja-data: a pattern
const STORE_RE = variableRe(REPLY_TEMPLATE_VARIABLES.store_name);

export type ReplyTemplateContext = {
  /** The reviewer's name as Google shows it; empty (or anonymous) → お客様. */
  reviewerName: string | null | undefined;
  isAnonymous?: boolean;
  storeName: string;
};

/**
 * The template for one review: {reviewer_name} becomes 「山田 太郎様」 (a 様 written after the
 * variable is not doubled), or 「お客様」 for an anonymous reviewer or an empty name;
 * {store_name} the store's name. The Japanese aliases ({お客様名}, {店舗名}) alike.
 */
export function renderReplyTemplate(body: string, ctx: ReplyTemplateContext): string {
  const name = (ctx.reviewerName ?? '').trim();
  const reviewer =
    ctx.isAnonymous || name === ''
      ? reviewTemplateJa.anonymousName
      : `${name}${reviewTemplateJa.honorific}`;
  return body.replace(REVIEWER_RE, () => reviewer).replace(STORE_RE, () => ctx.storeName.trim());
}

/**
 * One of the band's candidates at random, never `lastKey` (the one the store drew last) when
 * there is another, so two drafts in a row differ. Null when there is none. `random` in [0, 1).
 */
export function pickReplyTemplate<T extends { key: string }>(
  candidates: readonly T[],
  lastKey: string | null,
  random: () => number = Math.random,
): T | null {
  const pool =
    candidates.length > 1 && lastKey !== null
      ? candidates.filter((c) => c.key !== lastKey)
      : candidates;
  if (pool.length === 0) return null;
  const i = Math.min(pool.length - 1, Math.floor(random() * pool.length));
  return pool[i] ?? null;
}

/** A built-in template's key: `builtin.<band>.<n>`. */
export type BuiltinReplyTemplate = { key: string; star_band: StarBand; body: string };

/** Tenpo's own templates, three or more a band (reviewTemplateJa.builtin). */
export const BUILTIN_REPLY_TEMPLATES: readonly BuiltinReplyTemplate[] = STAR_BANDS.flatMap((band) =>
  reviewTemplateJa.builtin[band].map((body, i) => ({
    key: `builtin.${band}.${i + 1}`,
    star_band: band,
    body,
  })),
);

/** A template as `GET /reviews/templates` lists it. */
export const replyTemplateSchema = z.object({
  /** The stored template's id; null for a built-in one. */
  id: z.number().int().nullable(),
  /** Stable across calls: the id as text, or `builtin.<band>.<n>`. */
  key: z.string(),
  star_band: z.enum(STAR_BANDS),
  body: z.string(),
  source: z.enum(REPLY_TEMPLATE_SOURCES),
  /** May the caller change or delete it (its store, or the agency for the agency's)? */
  editable: z.boolean(),
  updated_at: z.string().nullable(),
});
export type ReplyTemplateView = z.infer<typeof replyTemplateSchema>;

/** `GET /reviews/templates?user_id=`: the templates that serve one store. */
export const replyTemplateListQuery = z.object({ user_id: idField() });

export const replyTemplateListResponse = z.object({
  /** The store's own, then its agency's, then the built-in ones of each band with neither. */
  templates: z.array(replyTemplateSchema),
  /** Language-model drafts are configured (LLM_BASE_URL): the web shows 「AIで下書き」. */
  llm_enabled: z.boolean(),
  /** May the caller add templates for this store (a group leader only reads)? */
  can_edit: z.boolean(),
  /** May the caller write templates for every store of its agency (`scope: agency`)? */
  can_edit_agency: z.boolean(),
});
export type ReplyTemplateList = z.infer<typeof replyTemplateListResponse>;

/** `POST /reviews/templates`. */
export const replyTemplateCreateBody = z.object({
  user_id: idField(),
  star_band: z.enum(STAR_BANDS),
  body: replyTemplateBodyField,
  scope: z.enum(REPLY_TEMPLATE_SCOPES).default('store'),
});

/** `PATCH /reviews/templates/{id}`: the band, the body, or both. */
export const replyTemplateUpdateBody = z.object({
  user_id: idField(),
  star_band: z.enum(STAR_BANDS).optional(),
  body: replyTemplateBodyField.optional(),
});

/** `DELETE /reviews/templates/{id}?user_id=`. */
export const replyTemplateDeleteQuery = z.object({ user_id: idField() });

/** `POST /reviews/{id}/draft`: a draft reply, never sent. */
export const reviewDraftBody = z.object({
  user_id: idField(),
  source: z.enum(REVIEW_DRAFT_SOURCES).default('template'),
});

export const reviewDraftSchema = z.object({
  comment: z.string(),
  source: z.enum(REVIEW_DRAFT_SOURCES),
  /** The stored template drawn; null for a built-in one or a model's draft. */
  template_id: z.number().int().nullable(),
  /** The template drawn (its `key`); null for a model's draft. */
  template_key: z.string().nullable(),
  /** The model that wrote it; null for a template. */
  model: z.string().nullable(),
  /** The compliance check of the draft, as the send will run it. */
  rule_sets: z.array(z.enum(RULE_SET_IDS)),
  findings: z.array(complianceFindingSchema),
});
export type ReviewDraft = z.infer<typeof reviewDraftSchema>;
