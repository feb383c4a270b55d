import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Dialect } from '../kysely';

/**
 * Channel connections (issue 4): the provider tokens of each store's channel, sealed with
 * AES-256-GCM (lib/tokens.ts) before they reach these columns, and the one-time OAuth states
 * that tie a provider's redirect back to the store that started it.
 */
export const channels = (dialect: Dialect) => {
  const idType = dialect === 'postgres' ? 'serial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement();

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('channel_credentials')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('publisher_key', 'text', (c) => c.notNull())
        // Sealed values (`v1.<iv>.<tag>.<data>`); never stored in the clear.
        .addColumn('access_token', 'text', (c) => c.notNull())
        .addColumn('refresh_token', 'text')
        .addColumn('expires_at', 'text')
        .addColumn('scope', 'text')
        // Who the tokens belong to at the provider: Google account, Facebook user, X user.
        .addColumn('provider_user_id', 'text')
        .addColumn('provider_account_id', 'text')
        // Facebook: the chosen page and its (sealed) page token; Instagram: the IG user id.
        .addColumn('page_id', 'text')
        .addColumn('page_token', 'text')
        .addColumn('ig_user_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('channel_credentials_user_key', ['user_id', 'publisher_key'])
        .execute();

      await db.schema
        .createTable('oauth_states')
        .addColumn('id', idType, id)
        // SHA-256 of the state sent to the provider: a leaked table yields no usable state.
        .addColumn('state_hash', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('actor_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('publisher_key', 'text', (c) => c.notNull())
        // Sealed PKCE verifier.
        .addColumn('code_verifier', 'text', (c) => c.notNull())
        .addColumn('redirect_uri', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('oauth_states_expires_at')
        .on('oauth_states')
        .column('expires_at')
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('oauth_states').ifExists().execute();
      await db.schema.dropTable('channel_credentials').ifExists().execute();
    },
  };
};
