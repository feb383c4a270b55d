import {
  formatTokyo,
  ja,
  mayUsePublisher,
  PUBLISHER_LOG_LINES,
  PUBLISHER_LOGO_PATH,
  PUBLISHER_STATUS,
  PUBLISHERS,
  type PublisherKey,
  type PublisherRow,
} from '@tenpo/domain';
import {
  credentialHandle,
  type Channel,
  type ChannelError,
  type CredentialHandle,
  type TokenSet,
} from '../../channels/channel';
import type { ChannelSet } from '../../channels';
import type { PublisherConnectionRow, UserRow } from '../../db/types';
import { iso, type Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { decrypt, encrypt } from '../../lib/tokens';
import { createGrantAccess, type GrantAccessDeps } from './grant-access';
import {
  callback,
  connectUrl,
  disconnect,
  labelOf,
  lineOf,
  type ConnectContext,
} from './publisher.connect';
import type { AuditActor, AuditLog } from '../audit/audit.repo';

/** The transaction a unit of work runs on, for the audit record written with its changes. */
type Trx = Parameters<AuditLog['record']>[1];
import type { ConnectionPatch, CredentialsPatch, PublisherRepo } from './publisher.repo';

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

  const connect: ConnectContext = {
    repo,
    channelOf,
    seal,
    open,
    now,
    publicUrl,
    isAgencyPrefix: deps.isAgencyPrefix,
    log: deps.log,
    audit: deps.audit,
    ensureAllowed,
    record,
    tokenColumns,
  };

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

    /** `row` for every store × channel, read at once; keyed `<store id>:<channel>`. */
    async rows(
      stores: readonly UserRow[],
      keys: readonly PublisherKey[],
    ): Promise<Map<string, PublisherRow>> {
      const found = await repo.connectionsOf(
        stores.map((s) => s.id),
        keys,
      );
      const byKey = new Map(found.map((r) => [`${r.user_id}:${r.publisher_key}`, r]));
      const out = new Map<string, PublisherRow>();
      for (const store of stores)
        for (const key of keys)
          out.set(`${store.id}:${key}`, present(key, byKey.get(`${store.id}:${key}`)));
      return out;
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
     * The provider's consent URL, with a one-time state and a PKCE verifier kept here (see
     * publisher.connect.ts).
     */
    connectUrl: (
      actorId: number,
      store: UserRow,
      key: PublisherKey,
      requestHost?: string,
    ): Promise<string> => connectUrl(connect, actorId, store, key, requestHost),

    /** The provider's redirect back: the answer is where the browser goes next. */
    callback: (
      routeKey: string,
      q: { state?: string; code?: string; error?: string },
    ): Promise<string> => callback(connect, routeKey, q),

    /** Disconnects a publisher and the ones that go with it; ends the grant when unshared. */
    disconnect: (
      store: UserRow,
      key: PublisherKey,
      actor: AuditActor | null = null,
    ): Promise<void> => disconnect(connect, store, key, actor),
  };
}
