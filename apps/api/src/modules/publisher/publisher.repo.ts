import type { Db } from '../../db/kysely';
import type {
  ChannelCredentialsRow,
  OAuthStateRow,
  PublisherConnectionRow,
  PublisherConnectionsTable,
} from '../../db/types';

export type ConnectionPatch = Partial<
  Pick<
    PublisherConnectionsTable,
    | 'status'
    | 'entity_id'
    | 'location_name'
    | 'postal_code'
    | 'address_lines'
    | 'store_code'
    | 'log'
  >
>;

/** Credential columns as stored: token values arrive here already sealed. */
export type CredentialsPatch = Partial<
  Omit<ChannelCredentialsRow, 'id' | 'user_id' | 'publisher_key' | 'created_at' | 'updated_at'>
>;

export type PublisherRepo = ReturnType<typeof createPublisherRepo>;
export type PublisherQueries = ReturnType<typeof queries>;

const queries = (db: Db) => {
  return {
    connections: (userId: number): Promise<PublisherConnectionRow[]> =>
      db.selectFrom('publisher_connections').selectAll().where('user_id', '=', userId).execute(),

    /** Many stores' connections on these channels, in one query (a post to many stores). */
    connectionsOf: (
      userIds: readonly number[],
      keys: readonly string[],
    ): Promise<PublisherConnectionRow[]> =>
      userIds.length && keys.length
        ? db
            .selectFrom('publisher_connections')
            .selectAll()
            .where('user_id', 'in', [...userIds])
            .where('publisher_key', 'in', [...keys])
            .execute()
        : Promise.resolve([]),

    connection: (userId: number, key: string): Promise<PublisherConnectionRow | undefined> =>
      db
        .selectFrom('publisher_connections')
        .selectAll()
        .where('user_id', '=', userId)
        .where('publisher_key', '=', key)
        .executeTakeFirst(),

    /** Creates the row on first use; afterwards changes only the given columns. */
    async saveConnection(userId: number, key: string, patch: ConnectionPatch, now: string) {
      await db
        .insertInto('publisher_connections')
        .values({
          user_id: userId,
          publisher_key: key,
          status: 0,
          entity_id: null,
          location_name: null,
          postal_code: null,
          address_lines: null,
          store_code: null,
          log: '[]',
          ...patch,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc.columns(['user_id', 'publisher_key']).doUpdateSet({ ...patch, updated_at: now }),
        )
        .execute();
    },

    credentials: (userId: number, key: string): Promise<ChannelCredentialsRow | undefined> =>
      db
        .selectFrom('channel_credentials')
        .selectAll()
        .where('user_id', '=', userId)
        .where('publisher_key', '=', key)
        .executeTakeFirst(),

    /**
     * The store's credentials on a channel with its connection's entity id, in one statement
     * (a grant's use reads both: issue 26 P9). The connection is matched as `connection` does;
     * none, or one that names no entity, gives null.
     */
    credentialsWithEntity: (
      userId: number,
      key: string,
    ): Promise<(ChannelCredentialsRow & { connection_entity_id: string | null }) | undefined> =>
      db
        .selectFrom('channel_credentials')
        .leftJoin('publisher_connections', (j) =>
          j
            .onRef('publisher_connections.user_id', '=', 'channel_credentials.user_id')
            .onRef('publisher_connections.publisher_key', '=', 'channel_credentials.publisher_key'),
        )
        .selectAll('channel_credentials')
        .select('publisher_connections.entity_id as connection_entity_id')
        .where('channel_credentials.user_id', '=', userId)
        .where('channel_credentials.publisher_key', '=', key)
        .executeTakeFirst(),

    async saveCredentials(
      userId: number,
      key: string,
      patch: CredentialsPatch & { access_token: string },
      now: string,
    ) {
      await db
        .insertInto('channel_credentials')
        .values({ user_id: userId, publisher_key: key, ...patch, created_at: now, updated_at: now })
        .onConflict((oc) =>
          oc.columns(['user_id', 'publisher_key']).doUpdateSet({ ...patch, updated_at: now }),
        )
        .execute();
    },

    async updateCredentials(userId: number, key: string, patch: CredentialsPatch, now: string) {
      await db
        .updateTable('channel_credentials')
        .set({ ...patch, updated_at: now })
        .where('user_id', '=', userId)
        .where('publisher_key', '=', key)
        .execute();
    },

    async deleteCredentials(userId: number, keys: readonly string[]) {
      if (keys.length === 0) return;
      await db
        .deleteFrom('channel_credentials')
        .where('user_id', '=', userId)
        .where('publisher_key', 'in', [...keys])
        .execute();
    },

    /** Other stores holding a grant of the same provider user (an agency's one account). */
    async sharedGrants(userId: number, key: string, providerUserId: string): Promise<number> {
      const row = await db
        .selectFrom('channel_credentials')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('publisher_key', '=', key)
        .where('provider_user_id', '=', providerUserId)
        .where('user_id', '<>', userId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async createState(values: Omit<OAuthStateRow, 'id'>, now: string) {
      // Abandoned consents leave states behind; each new one sweeps the expired.
      await db.deleteFrom('oauth_states').where('expires_at', '<=', now).execute();
      await db.insertInto('oauth_states').values(values).execute();
    },

    /** One use only: the row is gone once read, whatever the outcome. */
    takeState: (stateHash: string): Promise<OAuthStateRow | undefined> =>
      db
        .deleteFrom('oauth_states')
        .where('state_hash', '=', stateHash)
        .returningAll()
        .executeTakeFirst(),

    /** Every store's credentials of one provider user (rows that may share a grant). */
    credentialsOfProviderUser: (key: string, providerUserId: string) =>
      db
        .selectFrom('channel_credentials')
        .selectAll()
        .where('publisher_key', '=', key)
        .where('provider_user_id', '=', providerUserId)
        .execute(),

    async updateCredentialsById(id: number, patch: CredentialsPatch, now: string) {
      await db
        .updateTable('channel_credentials')
        .set({ ...patch, updated_at: now })
        .where('id', '=', id)
        .execute();
    },

    /**
     * Takes the grant's refresh lease when it is free or its holder's time is up; true when
     * `owner` now holds it. One statement, so two processes cannot both win.
     */
    async takeRefreshLease(grantKey: string, owner: string, until: string, now: string) {
      const res = await db
        .insertInto('grant_refresh_leases')
        .values({ grant_key: grantKey, owner, expires_at: until })
        .onConflict((oc) =>
          oc
            .column('grant_key')
            .doUpdateSet({ owner, expires_at: until })
            .where('grant_refresh_leases.expires_at', '<=', now),
        )
        .executeTakeFirst();
      return Number(res.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    async releaseRefreshLease(grantKey: string, owner: string) {
      await db
        .deleteFrom('grant_refresh_leases')
        .where('grant_key', '=', grantKey)
        .where('owner', '=', owner)
        .execute();
    },
  };
};

export function createPublisherRepo(db: Db) {
  return {
    ...queries(db),
    /** One unit of work: every write in `fn` commits together or not at all. */
    transaction: <T>(fn: (repo: PublisherQueries, trx: Db) => Promise<T>): Promise<T> =>
      db.transaction().execute((trx) => fn(queries(trx), trx)),
  };
}
