import { createHash, randomBytes } from 'node:crypto';
import {
  ja,
  LINKED_PUBLISHERS,
  PUBLISHER_STATUS,
  publisherByKey,
  type PublisherKey,
} from '@tenpo/domain';
import { ChannelError, type Channel, type TokenSet } from '../../channels/channel';
import type { UserRow } from '../../db/types';
import { addMs, iso } from '../../lib/clock';
import { knownOriginOf } from '../../lib/hosts';
import { hashToken, newToken } from '../../lib/tokens';
import type { AuditActor, AuditLog } from '../audit/audit.repo';
import type { PublisherRepo, CredentialsPatch } from './publisher.repo';

/** How long a consent may take between our redirect and the provider's return. */
const STATE_TTL_MS = 10 * 60_000;

export const labelOf = (key: PublisherKey): string => publisherByKey(key)?.label ?? key;

/** The line the publisher row shows for a class of channel failure; never the vendor's text. */
export const lineOf = (key: PublisherKey, err: ChannelError): string => {
  const label = labelOf(key);
  switch (err.kind) {
    case 'reauth':
      return ja.channelReauth(label);
    case 'quota':
    case 'rate_limited':
      return ja.channelQuota(label);
    case 'transient':
      return ja.channelRetry(label);
    case 'outcome_unknown':
      return ja.channelOutcomeUnknown(label);
    case 'blocked':
      return ja.channelBlocked(label);
    default:
      return ja.channelInvalid(label);
  }
};

/** What connecting and disconnecting run on (publisher.service.ts builds it). */
export type ConnectContext = {
  repo: PublisherRepo;
  channelOf: (key: PublisherKey) => Channel;
  seal: (v: string) => string;
  open: (v: string) => string;
  now: () => Date;
  publicUrl: string;
  /** Whether a host's first label names an active agency (its white-label host). */
  isAgencyPrefix: (prefix: string) => Promise<boolean>;
  log: { warn: (obj: object, msg: string) => void };
  audit: AuditLog | undefined;
  ensureAllowed: (store: UserRow, key: PublisherKey) => void;
  /** Adds a line to the row's log; `status` when it changes. */
  record: (storeId: number, key: PublisherKey, text: string, status?: number) => Promise<void>;
  tokenColumns: (t: TokenSet) => CredentialsPatch & { access_token: string };
};

/**
 * The provider's consent URL, with a one-time state and a PKCE verifier kept here.
 * `requestHost` is the host the browser asked on: when it is one of ours (lib/hosts.ts),
 * the state remembers it so the return lands where the user's session is (ADR 0015).
 */
export async function connectUrl(
  c: ConnectContext,
  actorId: number,
  store: UserRow,
  key: PublisherKey,
  requestHost?: string,
): Promise<string> {
  const { repo, channelOf, seal, now, publicUrl, ensureAllowed } = c;
  ensureAllowed(store, key);
  const channel = channelOf(key);
  const state = newToken();
  const verifier = randomBytes(48).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  // The provider accepts only the redirect URIs registered with it: always PUBLIC_URL's.
  const redirectUri = `${publicUrl}/api/publisher/callback/${channel.connectAs}`;
  const returnOrigin = await knownOriginOf(publicUrl, requestHost, c.isAgencyPrefix);
  const t = now();
  await repo.createState(
    {
      state_hash: hashToken(state),
      user_id: store.id,
      actor_id: actorId,
      publisher_key: channel.connectAs,
      code_verifier: seal(verifier),
      redirect_uri: redirectUri,
      return_origin: returnOrigin,
      created_at: iso(t),
      expires_at: iso(addMs(t, STATE_TTL_MS)),
    },
    iso(t),
  );
  return channel.connectUrl({ state, redirectUri, codeChallenge: challenge });
}

/**
 * The provider's redirect back: checks the one-time state, exchanges the code, stores the
 * tokens sealed, and answers where the browser goes next: on the host the consent started
 * on (the state's origin), else here.
 */
export async function callback(
  c: ConnectContext,
  routeKey: string,
  q: { state?: string; code?: string; error?: string },
): Promise<string> {
  const { repo, channelOf, seal, open, now, record, tokenColumns } = c;
  const st = q.state ? await repo.takeState(hashToken(q.state)) : undefined;
  const origin = st?.return_origin ?? '';
  const back = (error: string, key: string = routeKey) =>
    `${origin}/connect-account?${new URLSearchParams({ error, publisher_key: key }).toString()}`;
  if (!st || st.publisher_key !== routeKey || st.expires_at <= iso(now()))
    return back('invalid_state');
  const key = st.publisher_key as PublisherKey;
  if (q.error || !q.code) return back(q.error === 'access_denied' ? 'access_denied' : 'denied');
  const channel = channelOf(key);
  let tokens: TokenSet;
  try {
    tokens = await channel.exchangeCode(q.code as string, st.redirect_uri, open(st.code_verifier));
  } catch (err) {
    if (!(err instanceof ChannelError)) throw err;
    c.log.warn({ publisher: key, kind: err.kind, detail: err.message }, 'code exchange');
    await record(st.user_id, key, lineOf(key, err));
    return back('connect_failed');
  }
  const t = iso(now());
  const linked = tokens.providerUserName
    ? { entity_id: tokens.providerUserId, location_name: tokens.providerUserName }
    : {};
  const actor = c.audit ? await c.audit.actorById(st.actor_id) : null;
  const was = await repo.connection(st.user_id, key);
  // The tokens, the connection's state and its record: one unit of work.
  await repo.transaction(async (tx, db) => {
    await tx.saveCredentials(
      st.user_id,
      key,
      {
        ...tokenColumns(tokens),
        refresh_token: tokens.refreshToken ? seal(tokens.refreshToken) : null,
        scope: tokens.scope,
        provider_user_id: tokens.providerUserId,
        provider_account_id: null,
        page_id: null,
        page_token: null,
        ig_user_id: null,
      },
      t,
    );
    await tx.saveConnection(
      st.user_id,
      key,
      { status: channel.afterConnect.status, log: '[]', ...linked },
      t,
    );
    await c.audit?.record(
      {
        actor,
        entity: 'connection',
        entityId: key,
        storeId: st.user_id,
        action: 'connect',
        summary: `${labelOf(key)} に接続`,
        before: { status: was?.status ?? PUBLISHER_STATUS.disconnect },
        after: {
          status: channel.afterConnect.status,
          ...(tokens.providerUserName ? { location_name: tokens.providerUserName } : {}),
        },
      },
      db,
    );
  });
  return `${origin}${channel.afterConnect.path}`;
}

/** Disconnects a publisher and the ones that go with it; ends the grant when unshared. */
export async function disconnect(
  c: ConnectContext,
  store: UserRow,
  key: PublisherKey,
  actor: AuditActor | null = null,
): Promise<void> {
  const { repo, channelOf, open, now, ensureAllowed } = c;
  ensureAllowed(store, key);
  const keys: PublisherKey[] = [key, ...(LINKED_PUBLISHERS[key] ?? [])];
  const before = await repo.connections(store.id);
  for (const k of keys) {
    const row = await repo.credentials(store.id, k);
    if (!row) continue;
    // One provider account may serve several stores (an agency's); revoking would end
    // the grant for all of them.
    const shared = row.provider_user_id
      ? await repo.sharedGrants(store.id, k, row.provider_user_id)
      : 0;
    if (shared > 0) continue;
    try {
      await channelOf(k).revoke({
        accessToken: open(row.access_token),
        refreshToken: row.refresh_token ? open(row.refresh_token) : null,
      });
    } catch (err) {
      // Already revoked or unreachable: the local disconnect stands either way.
      c.log.warn({ publisher: k, err: (err as Error).message }, 'revoke failed');
    }
  }
  // The grants, every linked connection's state and their records go together.
  await repo.transaction(async (tx, db) => {
    await tx.deleteCredentials(store.id, keys);
    for (const k of keys) {
      const was = before.find((r) => r.publisher_key === k);
      if (was && was.status !== PUBLISHER_STATUS.disconnect)
        await c.audit?.record(
          {
            actor,
            entity: 'connection',
            entityId: k,
            storeId: store.id,
            agencyId: store.agency_id,
            action: 'disconnect',
            summary: `${labelOf(k)} の接続を解除`,
            before: { status: was.status, location_name: was.location_name },
            after: { status: PUBLISHER_STATUS.disconnect, location_name: null },
          },
          db,
        );
      await tx.saveConnection(
        store.id,
        k,
        {
          status: PUBLISHER_STATUS.disconnect,
          entity_id: null,
          location_name: null,
          postal_code: null,
          address_lines: null,
          store_code: null,
          log: '[]',
        },
        iso(now()),
      );
    }
  });
}
