import {
  type Page,
  type PostApprovalView,
  type PostTopicType,
  type PublisherKey,
  type TopicField,
} from '@tenpo/domain';
import { api } from '@/lib/api-client';
import type { CursorPage } from '@/lib/keyset-pager';

/** The calls of spec 2 §7 (Posts) behind /create-post, /post/{id} and /posts. */

export type TargetState =
  /** Held until another person approves the post (ADR 0095): no job yet. */
  | 'awaiting_approval'
  /** Sent back, withdrawn or expired before approval: never sent. */
  | 'not_approved'
  | 'scheduled'
  | 'publishing'
  | 'published'
  | 'failed'
  | 'unknown'
  | 'removing'
  | 'removed';

/** One store × channel delivery of a post (issue 9). */
export type PostTarget = {
  id: number;
  user_id: number;
  publisher_key: PublisherKey;
  state: TargetState;
  /** When the state was reached (or is due, for scheduled), yyyy-MM-dd HH:mm:ss Tokyo. */
  time: string | null;
  /** The live post, once published. */
  url: string | null;
  errors: string[];
  /**
   * Whether the retry call takes it: a failed target, or one left unknown because the provider
   * could not be read (ADR 0026); not one still waiting to be settled.
   */
  retryable: boolean;
};

export type PostRow = {
  id: number;
  user_id?: number;
  content: string;
  button_type?: number | null;
  button_link?: string | null;
  phone_number?: string | null;
  shared_sns_type?: string | null;
  created_at: string;
  publish_date: string | null;
  delete_date: string | null;
  media_url: string[];
  targets: PostTarget[];
  /** Google's post type (ADR 0030) and an event's or offer's fields, dates in Tokyo. */
  post_type?: PostTopicType;
  topic?: Partial<Record<TopicField, string | null>> | null;
  /** The overall state (every target's, or partially published). */
  state?: PostState;
  /** The post's latest request for approval (ADR 0095), or null when it needed none. */
  approval?: PostApprovalView | null;
};

export type PostState =
  | 'awaiting_approval'
  | 'not_approved'
  | 'scheduled'
  | 'publishing'
  | 'published'
  | 'partially_published'
  | 'failed'
  | 'removed';

export type PostListQuery = {
  ids: readonly number[];
  page: number;
  perPage: number;
  q: string;
  /** The page next to the one shown, by its cursor (ADR 0098); `page` otherwise. */
  after?: string;
  before?: string;
};

/** A page of posts with the cursors of the pages beside it. */
export type PostPage = Page<PostRow> & Omit<CursorPage, 'current_page'>;

export const postKeys = {
  all: ['posts'] as const,
  list: (q: PostListQuery) => ['posts', 'list', q] as const,
  one: (id: string, userIds: string) => ['posts', 'one', id, userIds] as const,
  mainPhone: (userId: number) => ['main-phone', userId] as const,
};

const idsParam = (ids: readonly number[]) => ids.join(',');

/**
 * Spec 2 §7: the body's `data.data` is the page, and `data.data.data` its rows; the page next
 * to the one shown is asked for by its cursor (`after` / `before`, ADR 0098).
 */
export const postsCall = async (q: PostListQuery, signal?: AbortSignal): Promise<PostPage> =>
  (
    await api<{ data: PostPage }>('/posts', {
      query: {
        user_id: idsParam(q.ids),
        limit: q.perPage,
        page: q.page,
        after: q.after,
        before: q.before,
        post_key_search: q.q.trim() || undefined,
      },
      signal,
    })
  ).data.data;

export const postCall = async (id: string, ids: readonly number[]): Promise<PostRow | null> =>
  (await api<PostRow[]>(`/posts/${encodeURIComponent(id)}`, { query: { user_id: idsParam(ids) } }))
    .data[0] ?? null;

/** The multipart body of POST /posts (spec 2 §7). */
export type CreatePostInput = {
  userIds: readonly number[];
  content: string;
  buttonType: number;
  buttonLink: string;
  phoneNumber: string;
  channels: readonly PublisherKey[];
  publishDate: string;
  deleteDate: string;
  /** Files to upload, or URLs of media the copied post already has. */
  medias: ReadonlyArray<File | string>;
  /** Google's post type; an event or offer goes to Google only, with its fields. */
  postType: PostTopicType;
  topic: Readonly<Record<TopicField, string>> | null;
};

/**
 * Where a submission goes (ADR 0030): an event or an offer to its own call of spec 2 §7
 * (POST /posts/events, /posts/offers: Google only, with its fields). News is Google's plain
 * post, which POST /posts makes (it stores the same news post as POST /posts/news), so a news
 * submission goes there, to Google and the other ticked channels in one call.
 */
export const createPathOf = (postType: PostTopicType): string =>
  postType === 'event' ? '/posts/events' : postType === 'offer' ? '/posts/offers' : '/posts';

export const createPostCall = (p: CreatePostInput) => {
  const body = new FormData();
  body.set('user_id', idsParam(p.userIds));
  body.set('content', p.content);
  body.set('button_type', String(p.buttonType));
  body.set('button_link', p.buttonLink);
  body.set('phone_number', p.phoneNumber);
  body.set('shared_sns_type', p.channels.join(','));
  body.set('publish_date', p.publishDate);
  body.set('delete_date', p.deleteDate);
  p.medias.forEach((m, i) => body.set(`medias[${i}]`, m));
  if (p.postType !== 'news' && p.topic)
    for (const [k, v] of Object.entries(p.topic)) if (v.trim() !== '') body.set(k, v.trim());
  return api<unknown>(createPathOf(p.postType), { method: 'POST', body });
};

export const retryTargetCall = (postId: number, targetId: number) =>
  api<PostTarget>(`/posts/${postId}/targets/${targetId}/retry`, { method: 'POST' });

type BasicInformation = { core_information?: { main_phone?: string | null } | null };

/**
 * The business's main phone (spec 2 §3: call now is offered only with one), from GET
 * /entity/basic-information. Null when there is none or it cannot be read.
 */
export const mainPhoneCall = async (userId: number): Promise<string | null> => {
  try {
    const r = await api<BasicInformation>('/entity/basic-information', {
      query: { user_id: userId },
    });
    const phone = r.data.core_information?.main_phone?.trim();
    return phone ? phone : null;
  } catch {
    return null;
  }
};
