import { jsonStore, type JsonStore } from '../shared/store';

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

export const seedFacebook = (): FacebookState => ({
  codes: [],
  tokens: [],
  posts: [],
  photos: [],
  videos: [],
  containers: [],
  igMedia: [],
});

export const facebookStore = (dir: string, now: () => number): JsonStore<FacebookState> =>
  jsonStore(dir, 'facebook', seedFacebook, (s) => {
    const cutoff = now() - 24 * 3600_000;
    s.codes = s.codes.filter((c) => c.expiresAt > cutoff);
    s.tokens = s.tokens.filter((t) => t.expiresAt === 0 || t.expiresAt > now() - 7 * 24 * 3600_000);
  });
