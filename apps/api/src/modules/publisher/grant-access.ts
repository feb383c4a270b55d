import { randomUUID } from 'node:crypto';
import type { PublisherKey } from '@tenpo/domain';
import {
  ChannelError,
  type Channels,
  type CredentialHandle,
  type Grant,
  type GrantAccess,
  type TokenSet,
} from '../../channels/channel';
import type { ChannelCredentialsRow } from '../../db/types';
import { iso, type Clock } from '../../lib/clock';
import { decrypt, encrypt } from '../../lib/tokens';
import type { CredentialsPatch, PublisherRepo } from './publisher.repo';

export type GrantAccessDeps = {
  repo: PublisherRepo;
  channels: Channels;
  clock: Clock;
  secretKey: Buffer;
  /** The error for a store without credentials on the channel (the routes' 409). */
  notConnected: (key: PublisherKey) => Error;
  /** Called with every channel failure of a call, before it leaves (the publisher row's log). */
  onFailure?: (storeId: number, key: PublisherKey, err: ChannelError) => Promise<void>;
  /** How long a refresh may hold its grant's lease; a dead holder blocks no longer. */
  leaseMs?: number;
  /** How long a caller waits for another's refresh before giving up (transient). */
  waitMs?: number;
  pollMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** Wall clock for leases (shared by processes; tests move the app's clock by hand). */
  wallNow?: () => number;
};

export type GrantAccessService = GrantAccess & {
  /** Refreshes the handle's grant now (under its lease); the live tokens afterwards. */
  refresh(handle: CredentialHandle): Promise<string>;
};

/**
 * Resolves credential handles to live tokens, and keeps refreshes to one at a time per grant
 * across processes (ADR 0022): the refresher holds the grant's lease row; a caller that finds
 * the lease taken waits, then reads the tokens the holder wrote instead of refreshing again.
 * That matters most for X, whose refresh token rotates: a second refresh with the old token
 * would fail and push the grant into reauth. Stores that share a grant (an agency's one
 * provider account) share its lease, and the new tokens are written to each of them.
 */
export function createGrantAccess(deps: GrantAccessDeps): GrantAccessService {
  const { repo, channels, clock } = deps;
  const leaseMs = deps.leaseMs ?? 30_000;
  const waitMs = deps.waitMs ?? 35_000;
  const pollMs = deps.pollMs ?? 25;
  const pause = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const wallNow = deps.wallNow ?? (() => Date.now());
  const seal = (v: string) => encrypt(deps.secretKey, v);
  const open = (v: string) => decrypt(deps.secretKey, v);

  const grantKeyOf = (row: ChannelCredentialsRow): string =>
    `${row.publisher_key}:${row.provider_user_id ?? `store-${row.user_id}`}`;

  const tokenColumns = (t: TokenSet): CredentialsPatch & { access_token: string } => ({
    access_token: seal(t.accessToken),
    ...(t.refreshToken ? { refresh_token: seal(t.refreshToken) } : {}),
    expires_at: t.expiresAt ? iso(t.expiresAt) : null,
  });

  /**
   * The store's credentials with its connection's entity id, in one read (issue 26 P9). The
   * entity id is kept across a refresh, which rewrites tokens only, never the connection.
   */
  const load = async (
    h: CredentialHandle,
  ): Promise<{ row: ChannelCredentialsRow; entityId: string | null }> => {
    const found = await repo.credentialsWithEntity(h.storeId, h.publisher);
    if (!found) throw deps.notConnected(h.publisher);
    const { connection_entity_id: entityId, ...row } = found;
    return { row, entityId };
  };

  /** Refreshes under the grant's lease, unless someone did since `seen` was read. */
  async function refreshFrom(seen: ChannelCredentialsRow): Promise<ChannelCredentialsRow> {
    const key = seen.publisher_key as PublisherKey;
    const grantKey = grantKeyOf(seen);
    const owner = randomUUID();
    const giveUpAt = wallNow() + waitMs;
    const changed = async (): Promise<ChannelCredentialsRow | null> => {
      const cur = await repo.credentials(seen.user_id, key);
      if (!cur) throw deps.notConnected(key);
      // Sealed values carry a fresh IV: a different text means the tokens were rewritten.
      return cur.access_token !== seen.access_token ? cur : null;
    };
    for (;;) {
      const now = wallNow();
      if (
        await repo.takeRefreshLease(
          grantKey,
          owner,
          iso(new Date(now + leaseMs)),
          iso(new Date(now)),
        )
      )
        break;
      await pause(pollMs);
      const done = await changed();
      if (done) return done;
      if (wallNow() > giveUpAt)
        throw new ChannelError('transient', `refresh of ${grantKey} still running elsewhere`);
    }
    try {
      // Between our read and our lease another process may have finished a refresh.
      const done = await changed();
      if (done) return done;
      const oldRefresh = seen.refresh_token ? open(seen.refresh_token) : null;
      const t = await channels[key]
        .refresh({
          accessToken: open(seen.access_token),
          refreshToken: oldRefresh,
          pageToken: seen.page_token ? open(seen.page_token) : null,
        })
        .catch((err: unknown) => {
          // A refresh whose answer was lost is not sent again by the client (X rotates refresh
          // tokens); for the caller its own call was never sent: transient, not a lost publish.
          if (err instanceof ChannelError && err.kind === 'outcome_unknown')
            throw new ChannelError('transient', `refresh: ${err.message}`, null, err.status);
          throw err;
        });
      const at = iso(clock.now());
      const patch = tokenColumns(t);
      await repo.updateCredentialsById(seen.id, patch, at);
      // Other stores holding the same grant: the old refresh token may have stopped working.
      if (seen.provider_user_id && oldRefresh)
        for (const other of await repo.credentialsOfProviderUser(key, seen.provider_user_id))
          if (
            other.id !== seen.id &&
            other.refresh_token &&
            open(other.refresh_token) === oldRefresh
          )
            await repo.updateCredentialsById(other.id, patch, at);
      return (await repo.credentials(seen.user_id, key)) ?? seen;
    } finally {
      await repo.releaseRefreshLease(grantKey, owner);
    }
  }

  const grantOf = (row: ChannelCredentialsRow, entityId: string | null): Grant => ({
    accessToken: open(row.access_token),
    providerUserId: row.provider_user_id,
    accountId: row.provider_account_id,
    entityId,
    pageId: row.page_id,
    pageToken: row.page_token ? open(row.page_token) : null,
    igUserId: row.ig_user_id,
  });

  return {
    async use<T>(h: CredentialHandle, call: (grant: Grant) => Promise<T>): Promise<T> {
      const loaded = await load(h);
      let row = loaded.row;
      const channel = channels[h.publisher];
      try {
        let refreshed = false;
        const expiresAt = row.expires_at ? Date.parse(row.expires_at) : null;
        if (expiresAt !== null && expiresAt - clock.now().getTime() < channel.refreshMarginMs) {
          row = await refreshFrom(row);
          refreshed = true;
        }
        try {
          return await call(grantOf(row, loaded.entityId));
        } catch (err) {
          // Our clock and the provider's may disagree: an early expiry gets one refresh. A
          // refused call did not take effect, so running it again is safe.
          if (!(err instanceof ChannelError) || err.kind !== 'reauth' || refreshed) throw err;
          row = await refreshFrom(row);
          return await call(grantOf(row, loaded.entityId));
        }
      } catch (err) {
        if (!(err instanceof ChannelError)) throw err;
        const tagged = err.from(h.publisher);
        if (deps.onFailure) await deps.onFailure(h.storeId, h.publisher, tagged);
        throw tagged;
      }
    },

    async refresh(h) {
      return open((await refreshFrom((await load(h)).row)).access_token);
    },
  };
}
