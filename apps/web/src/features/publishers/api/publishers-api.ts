import type { FacebookPage, Location, Page, PublisherKey, PublisherRow } from '@tenpo/domain';
import { api } from '@/lib/api-client';

/** The calls of spec 1 §7 behind the connection screens. */

export const publisherKeys = {
  list: (userId: number) => ['publishers', userId] as const,
  pages: (userId: number) => ['facebook-pages', userId] as const,
  locations: (userId: number, page: number, perPage: number) =>
    ['locations', userId, page, perPage] as const,
};

export const publishersCall = async (userId: number): Promise<PublisherRow[]> =>
  (await api<PublisherRow[]>('/publisher', { query: { user_id: userId } })).data;

/** The provider's consent URL (`data.urlAuth`); the browser navigates to it. */
export const connectUrlCall = async (key: PublisherKey, userId: number): Promise<string> =>
  (
    await api<{ urlAuth: string }>('/publisher/connect', {
      query: { publisher_key: key, user_id: userId },
    })
  ).data.urlAuth;

export const disconnectCall = (row: PublisherRow, userId: number) =>
  api<PublisherRow[]>('/publisher/disconnect', {
    method: 'PUT',
    body: { publisher_id: row.publisher_id, entity_id: row.entity_id, user_id: userId },
  });

export const googleSyncCall = (userId: number) =>
  api<PublisherRow>('/publisher/google-my-business/sync', {
    method: 'POST',
    body: { user_id: userId },
  });

export const facebookPagesCall = async (userId: number): Promise<FacebookPage[]> =>
  (await api<FacebookPage[]>('/publisher/facebook/pages', { query: { user_id: userId } })).data;

export const connectPageCall = (userId: number, pageId: string) =>
  api<PublisherRow[]>('/publisher/facebook/connect-page', {
    method: 'POST',
    body: { user_id: userId, page_id: pageId },
  });

export const locationsCall = async (
  userId: number,
  page: number,
  perPage: number,
): Promise<Page<Location>> =>
  (
    await api<Page<Location>>('/entity/locations', {
      query: { user_id: userId, page, per_page: perPage },
    })
  ).data;

export const chooseLocationCall = (userId: number, locationId: string) =>
  api<PublisherRow>('/entity/location', {
    method: 'POST',
    body: { user_id: userId, location_id: locationId },
  });
