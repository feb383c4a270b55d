import { z } from 'zod';
import { userIdField } from '../stores/schemas';
import { knowledgeTagMessages, templateMessages } from '../messages/knowledge-tag';
import { checkTemplate } from './json-ld';
import { TEMPLATE_MAX_LENGTH } from './limits';

/**
 * The knowledge tag's calls (issue 11 item 3, spec 2 §7, ADR 0045). The embed call is public
 * (its keys are the credential); the others are the store's own, with `user_id` like every call.
 */

/** Spec 2 §3: 0 always on, 1 always off, 2 per-user opt-in. */
export const ANALYTICS_OPTIONS = [0, 1, 2] as const;
export type AnalyticsOption = (typeof ANALYTICS_OPTIONS)[number];
export const ANALYTICS_OPTION = { alwaysOn: 0, alwaysOff: 1, optIn: 2 } as const;

/** Spec 2 §9's 30-day constant: a tag seen within this many days counts as installed. */
export const KNOWLEDGE_TAG_SEEN_DAYS = 30;

export const knowledgeTagQuery = z.object({ user_id: userIdField });

/** What /add-knowledge-tag shows: the keys of the script tag, the option, whether it was seen. */
export const knowledgeTagSchema = z.object({
  api_key: z.string(),
  app_key: z.string(),
  /** The store's Google location id; null while the store has none (the tag then serves 404). */
  entity_id: z.string().nullable(),
  analytics_option: z.number().int().nullable(),
  seen: z.object({
    /** An embed call within KNOWLEDGE_TAG_SEEN_DAYS days. */
    installed: z.boolean(),
    first_seen_at: z.string().nullable(),
    last_seen_at: z.string().nullable(),
    /** The origin of the page that last loaded the tag (from its Referer), when it said. */
    page_origin: z.string().nullable(),
    embed_count: z.number().int(),
    /** The store's website (its basic information), as an origin; null when it has none. */
    website_origin: z.string().nullable(),
    /** Was the page that last loaded the tag on that website? null when either is unknown. */
    on_website: z.boolean().nullable(),
  }),
  /** Page views the script reported, as the analytics option allows. */
  view_count: z.number().int(),
});
export type KnowledgeTag = z.infer<typeof knowledgeTagSchema>;

export const knowledgeTagSettingsRequest = z.object({
  user_id: userIdField,
  // A number, or its digit as a form sends it; nothing else (null is not 0).
  analytics_option: z.preprocess(
    (v) => (typeof v === 'string' && /^\d$/.test(v) ? Number(v) : v),
    z.union([z.literal(0), z.literal(1), z.literal(2)], {
      error: knowledgeTagMessages.analyticsOption,
    }),
  ),
});

/** The markup editor's template (kept per store; the issue, newer than the spec, says so). */
export const schemaMarkupSchema = z.object({
  template: z.string(),
  is_default: z.boolean(),
  default_template: z.string(),
});
export type SchemaMarkup = z.infer<typeof schemaMarkupSchema>;

export const schemaMarkupRequest = z.object({
  user_id: userIdField,
  template: z
    .string({ error: templateMessages.required })
    .max(TEMPLATE_MAX_LENGTH, templateMessages.tooLong)
    .superRefine((text, ctx) => {
      const c = checkTemplate(text);
      if (!c.ok) ctx.addIssue({ code: 'custom', message: c.message });
    }),
});

const key = z.string().trim().min(1).max(100);
/** The embed call's query (spec 2 §7); anything wrong answers 404 without saying which. */
export const knowledgeTagEmbedQuery = z.object({
  api_key: key,
  app_key: key,
  entity_id: key,
});

const ORIGIN = /^(https?):\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?(?=[/?#]|$)/i;

/** Scheme, host and port of an http(s) URL (no `URL` here: the domain has neither DOM nor Node). */
const partsOf = (url: string | null | undefined) => {
  const m = url ? ORIGIN.exec(url.trim()) : null;
  if (!m?.[1] || !m[2]) return null;
  const scheme = m[1].toLowerCase();
  const port = m[3] && m[3] !== (scheme === 'http' ? '80' : '443') ? `:${m[3]}` : '';
  return { scheme, host: m[2].toLowerCase(), port };
};

/** A URL's origin, or null when it is not an http(s) URL. */
export const originOf = (url: string | null | undefined): string | null => {
  const p = partsOf(url);
  return p ? `${p.scheme}://${p.host}${p.port}` : null;
};

/**
 * Is a page of this origin on the store's website? The same host, with or without `www.`,
 * whatever the scheme or port (a site moved to https, or www, is still the shop's site).
 */
export const onWebsite = (pageOrigin: string | null, website: string | null): boolean | null => {
  const page = partsOf(pageOrigin);
  const site = partsOf(website);
  if (!page || !site) return null;
  const host = (h: string) => h.replace(/^www\./, '');
  return host(page.host) === host(site.host);
};
