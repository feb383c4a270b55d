import type { FetchedMedia } from '../shared/media';
import { jsonStore, type JsonStore } from '../shared/store';
import { fbDemoGrants, FB_PERMISSIONS } from './facebook.fixtures';

export type FbCode = {
  code: string;
  clientId: string;
  redirectUri: string;
  userId: string;
  scopes: string[];
  declined: string[];
  pageIds: string[];
  expiresAt: number;
  used: boolean;
};
export type FbToken = {
  token: string;
  kind: 'user' | 'page';
  long: boolean;
  userId: string;
  pageId?: string;
  scopes: string[];
  declined: string[];
  pageIds: string[];
  issuedAt: number;
  /** 0 = never (page tokens derived from a long-lived user token). */
  expiresAt: number;
  revoked: boolean;
};
export type FbPost = {
  id: string;
  pageId: string;
  message?: string;
  link?: string;
  createdAt: number;
  published: boolean;
  scheduledAt?: number;
  photoIds: string[];
  videoId?: string;
  deleted: boolean;
  type: 'status' | 'link' | 'photo' | 'video';
};
export type FbPhoto = {
  id: string;
  pageId: string;
  caption?: string;
  url?: string;
  blob?: string;
  published: boolean;
  temporary: boolean;
  postId?: string;
  createdAt: number;
  width?: number;
  height?: number;
  /** What was fetched from `url` (size, type from the bytes). */
  fetched?: FetchedMedia;
};
export type FbVideo = {
  id: string;
  pageId: string;
  title?: string;
  description?: string;
  postId?: string;
  createdAt: number;
  readyAt: number;
  published: boolean;
  error?: string;
  fetched?: FetchedMedia;
};

export type IgContainer = {
  id: string;
  igId: string;
  mediaType: 'IMAGE' | 'REELS' | 'STORIES' | 'CAROUSEL' | 'VIDEO';
  isCarouselItem: boolean;
  caption?: string;
  imageUrl?: string;
  videoUrl?: string;
  children: string[];
  createdAt: number;
  readyAt: number;
  /** Set when the media could not be used: shown as status "ERROR: …". */
  error?: { subcode: number; text: string };
  publishedAt?: number;
  mediaId?: string;
  fetched?: FetchedMedia;
};
export type IgMedia = {
  id: string;
  igId: string;
  containerId: string;
  caption?: string;
  mediaType: string;
  mediaUrl?: string;
  timestamp: number;
  shortcode: string;
  /** What was fetched for the published media (each child's for a carousel). */
  fetched?: FetchedMedia[];
};

export type FacebookState = {
  codes: FbCode[];
  tokens: FbToken[];
  posts: FbPost[];
  photos: FbPhoto[];
  videos: FbVideo[];
  containers: IgContainer[];
  igMedia: IgMedia[];
};

/** The demo grants (facebook.fixtures.ts) as the Graph emulator keeps tokens. */
const demoTokens = (now: number): FbToken[] =>
  fbDemoGrants.flatMap((g) => {
    const base = {
      long: true,
      userId: g.userId,
      scopes: [...FB_PERMISSIONS],
      declined: [],
      pageIds: [...g.pageIds],
      issuedAt: now,
      expiresAt: 0,
      revoked: false,
    };
    return [
      { ...base, token: g.userToken, kind: 'user' as const },
      ...Object.entries(g.pageTokens).map(([pageId, token]) => ({
        ...base,
        token,
        kind: 'page' as const,
        pageId,
      })),
    ];
  });

export const seedFacebook = (now: number): FacebookState => ({
  codes: [],
  tokens: demoTokens(now),
  posts: [],
  photos: [],
  videos: [],
  containers: [],
  igMedia: [],
});

/**
 * A state saved before the demo grants existed gets them on load; one that has them keeps
 * them as they are (a de-authorized demo grant stays so until a reset).
 */
export function withDemoTokens(s: FacebookState, now: number): FacebookState {
  for (const t of demoTokens(now)) if (!s.tokens.some((x) => x.token === t.token)) s.tokens.push(t);
  return s;
}

export function facebookStore(dir: string, now: () => number): JsonStore<FacebookState> {
  const store = jsonStore(
    dir,
    'facebook',
    () => seedFacebook(now()),
    (s) => {
      const cutoff = now() - 24 * 3600_000;
      s.codes = s.codes.filter((c) => c.expiresAt > cutoff);
      s.tokens = s.tokens.filter(
        (t) => t.expiresAt === 0 || t.expiresAt > now() - 7 * 24 * 3600_000,
      );
    },
  );
  withDemoTokens(store.data, now());
  return store;
}
