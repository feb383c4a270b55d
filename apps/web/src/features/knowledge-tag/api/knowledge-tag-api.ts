import type { KnowledgeTag, SchemaMarkup } from '@tenpo/domain';
import { api } from '@/lib/api-client';

/** The knowledge tag's calls (ADR 0045); the answer is the envelope's `data`. */

export const knowledgeTagKeys = {
  tag: (userId: number) => ['knowledge-tag', userId] as const,
  markup: (userId: number) => ['knowledge-tag', userId, 'schema-markup'] as const,
};

export const knowledgeTagCall = async (userId: number, signal?: AbortSignal) =>
  (await api<KnowledgeTag>('/knowledge-tag', { query: { user_id: userId }, signal })).data;

export const saveAnalyticsCall = async (userId: number, analyticsOption: number) =>
  api<KnowledgeTag>('/knowledge-tag/settings', {
    method: 'PUT',
    body: { user_id: userId, analytics_option: analyticsOption },
  });

export const schemaMarkupCall = async (userId: number, signal?: AbortSignal) =>
  (await api<SchemaMarkup>('/knowledge-tag/schema-markup', { query: { user_id: userId }, signal }))
    .data;

export const saveSchemaMarkupCall = (userId: number, template: string) =>
  api<SchemaMarkup>('/knowledge-tag/schema-markup', {
    method: 'PUT',
    body: { user_id: userId, template },
  });

export const resetSchemaMarkupCall = (userId: number) =>
  api<SchemaMarkup>('/knowledge-tag/schema-markup', {
    method: 'DELETE',
    query: { user_id: userId },
  });

/** Spec 2 §7: the script source is the site origin, /api/knowledge-tag/embed and the keys. */
export const embedScriptTag = (origin: string, tag: KnowledgeTag): string => {
  const q = new URLSearchParams({
    api_key: tag.api_key,
    app_key: tag.app_key,
    entity_id: tag.entity_id ?? '',
  });
  return `<script src="${origin}/api/knowledge-tag/embed?${q.toString()}"></script>`;
};
