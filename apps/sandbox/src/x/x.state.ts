import { jsonStore, type JsonStore } from '../shared/store';

export type XUser = { id: string; username: string; name: string; email: string };
export const xUsers: XUser[] = [
  {
    id: '1701234567890123456',
    username: 'tenpo_demo',
    name: 'Tenpo Demo Shop',
    email: 'shop@tenpo.example',
  },
  {
    id: '1709876543210987654',
    username: 'hana_salon_trial',
    name: 'ヘアサロン はな',
    email: 'trial@tenpo.example',
  },
];

export type XCode = {
  code: string;
  clientId: string;
  redirectUri: string;
  userId: string;
  scope: string;
  challenge: string;
  method: string;
  expiresAt: number;
  used: boolean;
};
export type XToken = {
  token: string;
  clientId: string;
  userId: string;
  scope: string;
  expiresAt: number;
  revoked: boolean;
  refresh?: string;
};
export type XRefresh = {
  token: string;
  clientId: string;
  userId: string;
  scope: string;
  revoked: boolean;
};
export type XTweet = {
  id: string;
  userId: string;
  text: string;
  createdAt: number;
  mediaIds: string[];
  replyTo?: string;
  deleted: boolean;
};
export type XMedia = {
  id: string;
  userId: string;
  category: string;
  mediaType: string;
  totalBytes: number;
  blob: string;
  segments: number[];
  state: 'initialized' | 'pending' | 'in_progress' | 'succeeded' | 'failed';
  finalizedAt?: number;
  readyAt?: number;
  expiresAt?: number;
  error?: string;
  kind?: 'photo' | 'gif' | 'video';
  width?: number;
  height?: number;
  altText?: string;
};
export type XState = {
  codes: XCode[];
  tokens: XToken[];
  refreshTokens: XRefresh[];
  tweets: XTweet[];
  media: XMedia[];
};

export const seedX = (): XState => ({
  codes: [],
  tokens: [],
  refreshTokens: [],
  tweets: [],
  media: [],
});
export const xStore = (dir: string, now: () => number): JsonStore<XState> =>
  jsonStore(dir, 'x', seedX, (s) => {
    const cutoff = now() - 24 * 3600_000;
    s.codes = s.codes.filter((c) => c.expiresAt > cutoff);
    s.tokens = s.tokens.filter((t) => t.expiresAt > cutoff);
  });
