import { createHash, randomBytes } from 'node:crypto';
import {
  formatTokyo,
  ja,
  LINKED_PUBLISHERS,
  mayUsePublisher,
  PUBLISHER_LOG_LINES,
  PUBLISHER_LOGO_PATH,
  PUBLISHER_STATUS,
  PUBLISHERS,
  publisherByKey,
  type PublisherKey,
  type PublisherRow,
} from '@tenpo/domain';
import {
  ChannelError,
  credentialHandle,
  type Channel,
  type CredentialHandle,
  type TokenSet,
} from '../../channels/channel';
import type { ChannelSet } from '../../channels';
import type { PublisherConnectionRow, UserRow } from '../../db/types';
import { addMs, iso, type Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { knownOriginOf } from '../../lib/hosts';
import { decrypt, encrypt, hashToken, newToken } from '../../lib/tokens';
import { createGrantAccess, type GrantAccessDeps } from './grant-access';
import type { AuditActor, AuditLog } from '../audit/audit.repo';

/** The transaction a unit of work runs on, for the audit record written with its changes. */
type Trx = Parameters<AuditLog['record']>[1];
import type { ConnectionPatch, CredentialsPatch, PublisherRepo } from './publisher.repo';

/** How long a consent may take between our redirect and the provider's return. */
const STATE_TTL_MS = 10 * 60_000;

export type PublisherService = ReturnType<typeof createPublisherService>;

/** The writes a unit of work may make on one store's connections. */
export type ConnectionWrites = {
  saveConnection(key: PublisherKey, patch: ConnectionPatch): Promise<void>;
  saveCredentials(
    key: PublisherKey,
    patch: CredentialsPatch & { access_token: string },
  ): Promise<void>;
  updateCredentials(key: PublisherKey, patch: CredentialsPatch): Promise<void>;
  deleteCredentials(keys: readonly PublisherKey[]): Promise<void>;
};

type Logger = { warn: (obj: object, msg: string) => void };

const labelOf = (key: PublisherKey): string => publisherByKey(key)?.label ?? key;

const parseLines = (text: string | null): string[] => {
  try {
    const v = JSON.parse(text ?? '[]') as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
};

/** A log line as the screen shows it: Tokyo time, then the sentence. */
const logLine = (now: Date, text: string): string =>
  `${formatTokyo(now, 'YYYY-MM-DD HH:mm')} ${text}`;

/** The line the publisher row shows for a class of channel failure; never the vendor's text. */
const lineOf = (key: PublisherKey, err: ChannelError): string => {
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

export function createPublisherService(deps: {
  repo: PublisherRepo;
  channels: ChannelSet;
  clock: Clock;
  secretKey: Buffer;
  publicUrl: string;
  /** Whether a host's first label names an active agency (its white-label host). */
  isAgencyPrefix: (prefix: string) => Promise<boolean>;
  log: Logger;
  /** Lease timings of the grant refresh (tests shorten them). */
  grantAccess?: Pick<GrantAccessDeps, 'leaseMs' | 'waitMs' | 'pollMs' | 'sleep' | 'wallNow'>;
  /** Connections, disconnections, choices and grants turned error are recorded (ADR 0047). */
  audit?: AuditLog;
}) {
  const { repo, channels, clock, secretKey, publicUrl } = deps;
  const seal = (v: string) => encrypt(secretKey, v);
  const open = (v: string) => decrypt(secretKey, v);
  const now = () => clock.now();
  const channelOf = (key: PublisherKey): Channel => channels.all[key];

  /** Free-trial stores may act only on the allowed publishers (DESIGN §10): 403 otherwise. */
  const ensureAllowed = (store: UserRow, key: PublisherKey): void => {
    if (!mayUsePublisher(store.role, key))
      throw new AppError(403, 'forbidden', ja.channelTrialOnly);
  };

  const notConnected = (key: PublisherKey) =>
    new AppError(409, 'channel_not_connected', ja.channelNotConnected(labelOf(key)));

  const present = (key: PublisherKey, row: PublisherConnectionRow | undefined): PublisherRow => {
    const p = PUBLISHERS.find((x) => x.key === key) ?? PUBLISHERS[0];
    if (!p) throw new Error('no publishers');
    return {
      publisher_id: p.id,
      publisher_key: p.key,
      publisher_name: p.name,
      // Relative: the page may be on any of our hosts, and its CSP allows only its own.
      logo_url: `${PUBLISHER_LOGO_PATH}${p.logo}`,
      entity_id: row?.entity_id ?? null,
      location_name: row?.location_name ?? null,
      postal_code: row?.postal_code ?? null,
      address_lines: parseLines(row?.address_lines ?? null),
      store_code: row?.store_code ?? null,
      status: row?.status ?? PUBLISHER_STATUS.disconnect,
      log: parseLines(row?.log ?? null),
    };
  };

  /** Adds a line to the row's log (the newest last, a few kept); `status` when it changes. */
  const record = async (storeId: number, key: PublisherKey, text: string, status?: number) => {
    const row = await repo.connection(storeId, key);
    const lines = [...parseLines(row?.log ?? null), logLine(now(), text)].slice(
      -PUBLISHER_LOG_LINES,
    );
    await repo.saveConnection(
      storeId,
      key,
      { log: JSON.stringify(lines), ...(status === undefined ? {} : { status }) },
      iso(now()),
    );
  };

  /** Writes a channel failure where the screen shows it; the error handler answers it. */
  const recordFailure = async (storeId: number, key: PublisherKey, err: ChannelError) => {
    deps.log.warn({ publisher: key, kind: err.kind, detail: err.message }, 'channel call failed');
    const was = err.kind === 'reauth' ? (await repo.connection(storeId, key))?.status : undefined;
    await record(
      storeId,
      key,
      lineOf(key, err),
      err.kind === 'reauth' ? PUBLISHER_STATUS.error : undefined,
    );
    // The grant turned error: the system's change (no actor), as a job or a call met it.
    if (err.kind === 'reauth' && was !== undefined && was !== PUBLISHER_STATUS.error)
      await deps.audit?.record({
        actor: null,
        entity: 'connection',
        entityId: key,
        storeId,
        action: 'update',
        summary: `${labelOf(key)} の接続がエラーになりました（再接続が必要です）`,
        before: { status: was },
        after: { status: PUBLISHER_STATUS.error },
      });
  };

  const tokenColumns = (t: TokenSet): CredentialsPatch & { access_token: string } => ({
    access_token: seal(t.accessToken),
    ...(t.refreshToken ? { refresh_token: seal(t.refreshToken) } : {}),
    expires_at: t.expiresAt ? iso(t.expiresAt) : null,
  });

  const grants = createGrantAccess({
    repo,
    channels: channels.all,
    clock,
    secretKey,
    notConnected,
    onFailure: recordFailure,
    ...deps.grantAccess,
  });
  /** Every channel's capabilities, resolving handles through `grants`. */
  const registry = channels.registry(grants);

  return {
    ensureAllowed,
    registry,
    grants,
    /** The handle capabilities take for a store's channel (ADR 0022). */
    handleOf: (store: UserRow, key: PublisherKey): CredentialHandle =>
      credentialHandle(store.id, key),
    record,
    notConnected,
    seal,
    open,

    /** The four publishers, each merged with the store's connection (spec 1 §2 table). */
    async list(store: UserRow): Promise<PublisherRow[]> {
      const rows = await repo.connections(store.id);
      return PUBLISHERS.map((p) =>
        present(
          p.key,
          rows.find((r) => r.publisher_key === p.key),
        ),
      );
    },

    async row(store: UserRow, key: PublisherKey): Promise<PublisherRow> {
      return present(key, await repo.connection(store.id, key));
    },

    saveConnection: (
      store: UserRow,
      key: PublisherKey,
      patch: Parameters<PublisherRepo['saveConnection']>[2],
    ) => repo.saveConnection(store.id, key, patch, iso(now())),

    saveCredentials: (
      store: UserRow,
      key: PublisherKey,
      patch: Parameters<PublisherRepo['saveCredentials']>[2],
    ) => repo.saveCredentials(store.id, key, patch, iso(now())),

    updateCredentials: (store: UserRow, key: PublisherKey, patch: CredentialsPatch) =>
      repo.updateCredentials(store.id, key, patch, iso(now())),

    deleteCredentials: (store: UserRow, keys: readonly PublisherKey[]) =>
      repo.deleteCredentials(store.id, keys),

    /**
     * One unit of work on a store's connections: the writes in `fn` commit together or not at
     * all (the repository's transaction, as auth.repo does it).
     */
    unitOfWork: <T>(store: UserRow, fn: (w: ConnectionWrites, db: Trx) => Promise<T>): Promise<T> =>
      repo.transaction((trx, db) => {
        const at = iso(now());
        return fn(
          {
            saveConnection: (key, patch) => trx.saveConnection(store.id, key, patch, at),
            saveCredentials: (key, patch) => trx.saveCredentials(store.id, key, patch, at),
            updateCredentials: (key, patch) => trx.updateCredentials(store.id, key, patch, at),
            deleteCredentials: (keys) => trx.deleteCredentials(store.id, keys),
          },
          db,
        );
      }),

    /**
     * The provider's consent URL, with a one-time state and a PKCE verifier kept here.
     * `requestHost` is the host the browser asked on: when it is one of ours (lib/hosts.ts),
     * the state remembers it so the return lands where the user's session is (ADR 0015).
     */
    async connectUrl(
      actorId: number,
      store: UserRow,
      key: PublisherKey,
      requestHost?: string,
    ): Promise<string> {
      ensureAllowed(store, key);
      const channel = channelOf(key);
      const state = newToken();
      const verifier = randomBytes(48).toString('base64url');
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      // The provider accepts only the redirect URIs registered with it: always PUBLIC_URL's.
      const redirectUri = `${publicUrl}/api/publisher/callback/${channel.connectAs}`;
      const returnOrigin = await knownOriginOf(publicUrl, requestHost, deps.isAgencyPrefix);
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
    },

    /**
     * The provider's redirect back: checks the one-time state, exchanges the code, stores the
     * tokens sealed, and answers where the browser goes next: on the host the consent started
     * on (the state's origin), else here.
     */
    async callback(
      routeKey: string,
      q: { state?: string; code?: string; error?: string },
    ): Promise<string> {
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
        tokens = await channel.exchangeCode(
          q.code as string,
          st.redirect_uri,
          open(st.code_verifier),
        );
      } catch (err) {
        if (!(err instanceof ChannelError)) throw err;
        deps.log.warn({ publisher: key, kind: err.kind, detail: err.message }, 'code exchange');
        await record(st.user_id, key, lineOf(key, err));
        return back('connect_failed');
      }
      const t = iso(now());
      const linked = tokens.providerUserName
        ? { entity_id: tokens.providerUserId, location_name: tokens.providerUserName }
        : {};
      const actor = deps.audit ? await deps.audit.actorById(st.actor_id) : null;
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
        await deps.audit?.record(
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
    },

    /** Disconnects a publisher and the ones that go with it; ends the grant when unshared. */
    async disconnect(
      store: UserRow,
      key: PublisherKey,
      actor: AuditActor | null = null,
    ): Promise<void> {
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
          deps.log.warn({ publisher: k, err: (err as Error).message }, 'revoke failed');
        }
      }
      // The grants, every linked connection's state and their records go together.
      await repo.transaction(async (tx, db) => {
        await tx.deleteCredentials(store.id, keys);
        for (const k of keys) {
          const was = before.find((r) => r.publisher_key === k);
          if (was && was.status !== PUBLISHER_STATUS.disconnect)
            await deps.audit?.record(
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
    },
  };
}
