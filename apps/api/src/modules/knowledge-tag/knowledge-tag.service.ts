import { randomBytes } from 'node:crypto';
import {
  ANALYTICS_OPTION,
  checkTemplate,
  CONNECTED_PUBLISHER_STATUSES,
  DEFAULT_SCHEMA_TEMPLATE,
  DEFAULT_SCHEMA_TEMPLATE_TEXT,
  embedFieldValues,
  KNOWLEDGE_TAG_SEEN_DAYS,
  onWebsite,
  originOf,
  placeholderValues,
  renderTemplate,
  sameAsOf,
  storeFactsOf,
  type KnowledgeTag,
  type SchemaMarkup,
  type OfferFact,
} from '@tenpo/domain';
import { ChannelError } from '../../channels/channel';
import type { KnowledgeTagRow, UserRow } from '../../db/types';
import { DAY, iso, type Clock } from '../../lib/clock';
import { AppError, notFound, validationError } from '../../lib/errors';
import { safeEqualTo } from '../../lib/tokens';
import type { EntityService } from '../entity/entity.service';
import type { PublisherService } from '../publisher/publisher.service';
import type { AuditActor, AuditLog } from '../audit/audit.repo';
import type { KnowledgeTagRepo } from './knowledge-tag.repo';
import type { EmbedPayload } from './knowledge-tag.script';

export type KnowledgeTagService = ReturnType<typeof createKnowledgeTagService>;

/** How long a store's rendered tag is served before Google is read again (ADR 0045). */
export const EMBED_FRESH_MS = 60_000;

const newKey = () => randomBytes(24).toString('base64url');

/** The keys of the embed call, checked in one place: anything wrong is the same 404. */
export type EmbedKeys = { api_key: string; app_key: string; entity_id: string };

/**
 * The knowledge tag (issue 11 item 3, ADR 0045): per-store keys, the analytics option, the
 * markup template, and the public embed call that serves the store's facts as JSON-LD.
 */
export function createKnowledgeTagService(deps: {
  repo: KnowledgeTagRepo;
  entity: EntityService;
  publishers: PublisherService;
  findStore: (id: number) => Promise<UserRow | undefined>;
  /** The store's website as its information has it (no call to Google); null: none set. */
  websiteOf: (storeId: number) => Promise<string | null>;
  /** The store's photos (their public URLs) and products, from the photo library and catalogue. */
  extras?: (storeId: number) => Promise<{ photos: string[]; offers: OfferFact[] }>;
  clock: Clock;
  /** Settings and template changes are recorded as changes to the store (ADR 0047). */
  audit?: AuditLog;
}) {
  const { repo, clock } = deps;
  const recordSetting = (
    store: UserRow,
    actor: AuditActor | null,
    summary: string,
    before: Record<string, unknown>,
    after: Record<string, unknown>,
  ) =>
    deps.audit?.recordUpdate(
      {
        actor,
        entity: 'store',
        entityId: store.id,
        storeId: store.id,
        agencyId: store.agency_id,
        summary,
      },
      before,
      after,
    );
  const now = () => iso(clock.now());
  /** The last good payload per store: fresh for a minute, and served stale if Google fails. */
  const rendered = new Map<number, { at: number; payload: EmbedPayload }>();

  const rowOf = async (store: UserRow): Promise<KnowledgeTagRow> => {
    const found = await repo.byStore(store.id);
    if (found) return found;
    await repo.create(store.id, { api_key: newKey(), app_key: newKey() }, now());
    const made = await repo.byStore(store.id);
    if (!made) throw new Error('knowledge tag row not created');
    return made;
  };

  const entityIdOf = async (store: UserRow) =>
    (await deps.publishers.row(store, 'google_my_business')).entity_id;

  /** The store whose tag these keys are; anything wrong answers 404 and says nothing more. */
  const resolve = async (keys: EmbedKeys) => {
    // No key holds a NUL (they are base64url), and PostgreSQL's text cannot hold one: not found.
    if ([keys.api_key, keys.app_key, keys.entity_id].some((k) => k.includes('\0')))
      throw notFound();
    const row = await repo.byApiKey(keys.api_key);
    if (!row || !safeEqualTo(row.app_key)(keys.app_key)) throw notFound();
    const store = await deps.findStore(row.store_id);
    if (!store || (await entityIdOf(store)) !== keys.entity_id) throw notFound();
    return { row, store };
  };

  const payloadOf = async (store: UserRow, row: KnowledgeTagRow): Promise<EmbedPayload> => {
    const info = await deps.entity.basicInformation(store);
    const profiles = (await deps.publishers.list(store)).filter((p) =>
      CONNECTED_PUBLISHER_STATUSES.includes(p.status as never),
    );
    const extra = (await deps.extras?.(store.id)) ?? { photos: [], offers: [] };
    const facts = storeFactsOf(info, { sameAs: sameAsOf(profiles), ...extra });
    const template = row.template ? checkTemplate(row.template) : null;
    const ld = renderTemplate(
      template?.ok ? template.value : DEFAULT_SCHEMA_TEMPLATE,
      placeholderValues(facts),
    );
    return { ld, fields: embedFieldValues(facts), analytics: row.analytics_option };
  };

  const forget = (storeId: number) => rendered.delete(storeId);

  return {
    /** The store's tag (its keys made on first use), its option and what the embed calls saw. */
    async tag(store: UserRow): Promise<KnowledgeTag> {
      const row = await rowOf(store);
      const last = row.last_seen_at ? Date.parse(row.last_seen_at) : null;
      // The website the tag should be seen on; unknown (null) while Google cannot be read.
      const website = await deps.entity
        .basicInformation(store)
        .then((b) => b.contact_website_apps.website_url.url)
        .catch((err: unknown) => {
          if (err instanceof AppError || err instanceof ChannelError) return null;
          throw err;
        });
      return {
        api_key: row.api_key,
        app_key: row.app_key,
        entity_id: await entityIdOf(store),
        analytics_option: row.analytics_option,
        seen: {
          installed: last !== null && clock.now().getTime() - last <= KNOWLEDGE_TAG_SEEN_DAYS * DAY,
          first_seen_at: row.first_seen_at,
          last_seen_at: row.last_seen_at,
          page_origin: row.page_origin,
          embed_count: row.embed_count,
          website_origin: originOf(website),
          on_website: onWebsite(row.page_origin, website),
        },
        view_count: row.view_count,
      };
    },

    async setAnalytics(
      store: UserRow,
      option: number,
      actor: AuditActor | null = null,
    ): Promise<KnowledgeTag> {
      const was = await rowOf(store);
      await repo.update(store.id, { analytics_option: option }, now());
      await recordSetting(
        store,
        actor,
        'ナレッジタグの解析設定を変更',
        { analytics_option: was.analytics_option },
        { analytics_option: option },
      );
      forget(store.id);
      return this.tag(store);
    },

    async markup(store: UserRow): Promise<SchemaMarkup> {
      const row = await rowOf(store);
      return {
        template: row.template ?? DEFAULT_SCHEMA_TEMPLATE_TEXT,
        is_default: row.template === null,
        default_template: DEFAULT_SCHEMA_TEMPLATE_TEXT,
      };
    },

    async saveMarkup(
      store: UserRow,
      text: string,
      actor: AuditActor | null = null,
    ): Promise<SchemaMarkup> {
      const c = checkTemplate(text);
      if (!c.ok) throw validationError({ template: [c.message] });
      const was = await rowOf(store);
      await repo.update(store.id, { template: text }, now());
      await recordSetting(
        store,
        actor,
        'ナレッジタグのマークアップを変更',
        { template: was.template },
        { template: text },
      );
      forget(store.id);
      return this.markup(store);
    },

    async resetMarkup(store: UserRow, actor: AuditActor | null = null): Promise<SchemaMarkup> {
      const was = await rowOf(store);
      await repo.update(store.id, { template: null }, now());
      await recordSetting(
        store,
        actor,
        'ナレッジタグのマークアップを初期値に戻す',
        { template: was.template },
        { template: null },
      );
      forget(store.id);
      return this.markup(store);
    },

    /** The embed call: the payload for the script, and the sighting recorded for step 3. */
    async embed(keys: EmbedKeys, pageOrigin: string | null): Promise<EmbedPayload> {
      const { row, store } = await resolve(keys);
      const t = clock.now().getTime();
      const cached = rendered.get(store.id);
      let payload: EmbedPayload;
      if (cached && t - cached.at < EMBED_FRESH_MS) payload = cached.payload;
      else {
        try {
          payload = await payloadOf(store, row);
          rendered.set(store.id, { at: t, payload });
        } catch (err) {
          if (!cached) {
            if (err instanceof AppError && err.statusCode < 500)
              throw new AppError(503, 'knowledge_tag_unavailable', '店舗情報を取得できません。');
            throw err;
          }
          payload = cached.payload;
        }
      }
      await repo.seen(store.id, pageOrigin, now());
      return payload;
    },

    /**
     * A page view the script reported: counted when the store's analytics option allows it and
     * the page is on the store's own website (issue 22 item 10, ADR 0066). A beacon from any
     * other origin, or of a store with no website set, is answered alike and not counted.
     */
    async view(keys: EmbedKeys, pageOrigin: string | null): Promise<void> {
      const { row, store } = await resolve(keys);
      const option = row.analytics_option;
      if (option !== ANALYTICS_OPTION.alwaysOn && option !== ANALYTICS_OPTION.optIn) return;
      if (onWebsite(pageOrigin, await deps.websiteOf(store.id)) !== true) return;
      await repo.viewed(store.id);
    },
  };
}
