import type { NoticeSettingsView, NoticeView, Page, ReviewMailMode } from '@tenpo/domain';
import { api } from '@/lib/api-client';

/** The signed-in user's notices and review mail choice (ADR 0094). */

export type NoticeList = { data: Page<NoticeView>; unread: number };

export const noticeKeys = {
  all: ['notices'] as const,
  list: ['notices', 'list'] as const,
  settings: ['notices', 'settings'] as const,
};

/** Read every minute while the app is open, so the bell's count follows the syncs. */
export const NOTICE_POLL_MS = 60_000;

export const noticesCall = async (signal?: AbortSignal): Promise<NoticeList> =>
  (await api<NoticeList>('/notices', { query: { limit: 10 }, signal })).data;

export const readNoticesCall = (ids?: number[]) =>
  api<{ unread: number }>('/notices/read', { method: 'POST', body: ids ? { ids } : {} });

export const noticeSettingsCall = async (signal?: AbortSignal) =>
  (await api<NoticeSettingsView>('/notices/settings', { signal })).data;

export const saveNoticeSettingsCall = (mode: ReviewMailMode) =>
  api<NoticeSettingsView>('/notices/settings', { method: 'PUT', body: { review_mail: mode } });
