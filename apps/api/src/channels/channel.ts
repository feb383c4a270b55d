import type { PublisherKey, PublisherStatus } from '@tenpo/domain';

/**
 * What went wrong at a provider, in the four classes the rest of Tenpo acts on (CONVENTIONS:
 * errors). Each channel folder classifies its provider's raw answers once; nothing outside a
 * channel folder reads a vendor's message.
 * - retryable: the provider failed or was unreachable; the same call may work later.
 * - reauth: the grant is gone (revoked, expired, password changed); the user must reconnect.
 * - invalid: the provider refused what we sent; retrying the same call will not help.
 * - quota: a rate limit or quota; `retryAfterMs` says when access comes back, if known.
 */
export type FailureKind = 'retryable' | 'reauth' | 'invalid' | 'quota';

export class ChannelError extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly retryAfterMs: number | null = null,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'ChannelError';
  }
}

/** Tokens as a channel hands them over; stored sealed by the publisher repo. */
export type TokenSet = {
  accessToken: string;
  /** null: the provider issued none (or keeps the previous one: see `refresh`). */
  refreshToken: string | null;
  expiresAt: Date | null;
  scope: string | null;
  /** Who granted access at the provider (Google e-mail, Facebook user id, X user id). */
  providerUserId: string | null;
  /** A name to show for the grant (X @username), when the provider gives one. */
  providerUserName: string | null;
};

export type ConnectRequest = { state: string; redirectUri: string; codeChallenge: string };

/**
 * One channel's OAuth side. Listing, publishing, deleting and uploading belong to the
 * channel-specific interfaces below and to later issues.
 */
export interface Channel {
  readonly key: PublisherKey;
  /**
   * The channel whose consent screen grants this one (Instagram is granted through the
   * Facebook login); the connection is stored under that key.
   */
  readonly connectAs: PublisherKey;
  /** After the provider's consent: where the browser goes, and the row's status. */
  readonly afterConnect: { path: string; status: PublisherStatus };
  /** Refresh this long before expiry, so a call never starts with a dying token. */
  readonly refreshMarginMs: number;
  connectUrl(req: ConnectRequest): string;
  exchangeCode(code: string, redirectUri: string, codeVerifier: string): Promise<TokenSet>;
  /** A fresh access token; `refreshToken` in the result is null when the old one stays. */
  refresh(tokens: { accessToken: string; refreshToken: string | null }): Promise<TokenSet>;
  /** Ends the grant at the provider, best effort (disconnect goes on locally regardless). */
  revoke(tokens: { accessToken: string; refreshToken: string | null }): Promise<void>;
}

export type Channels = Readonly<Record<PublisherKey, Channel>>;
