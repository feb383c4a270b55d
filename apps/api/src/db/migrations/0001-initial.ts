import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Dialect } from '../kysely';

/** Tables of the platform: users and stores, sessions, resets, registration, agencies' groups. */
export const initial = (dialect: Dialect) => {
  // An auto-incrementing integer key on both databases.
  const idType = dialect === 'postgres' ? 'serial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement();

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('users')
        .addColumn('id', idType, id)
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text')
        .addColumn('name', 'text')
        .addColumn('role', 'integer', (c) => c.notNull())
        .addColumn('account_kind', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('is_leader', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('agreed_terms', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('phone', 'text')
        .addColumn('company_name', 'text')
        .addColumn('store_name', 'text')
        .addColumn('logo_url', 'text')
        .addColumn('agent_code', 'text')
        .addColumn('trial_ends_at', 'text')
        .addColumn('payment_fail', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('agency_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('users_agency_id').on('users').column('agency_id').execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .addColumn('replaced_by', 'integer')
        .addColumn('user_agent', 'text')
        .addColumn('ip', 'text')
        .execute();
      await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();

      await db.schema
        .createTable('password_resets')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();

      await db.schema
        .createTable('registration_requests')
        .addColumn('id', idType, id)
        .addColumn('full_name', 'text', (c) => c.notNull())
        .addColumn('company_name', 'text', (c) => c.notNull())
        .addColumn('store_name', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('phone', 'text')
        .addColumn('knowledge', 'text')
        .addColumn('agent_code', 'text', (c) => c.notNull())
        .addColumn('client_company_name', 'text')
        .addColumn('agency_name', 'text')
        .addColumn('register_type', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('registration_tokens')
        .addColumn('id', idType, id)
        .addColumn('request_id', 'integer', (c) =>
          c.notNull().references('registration_requests.id').onDelete('cascade'),
        )
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();

      await db.schema
        .createTable('agency_domains')
        .addColumn('id', idType, id)
        .addColumn('agency_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('prefix', 'text', (c) => c.notNull().unique())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('favicon_url', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('store_groups')
        .addColumn('id', idType, id)
        .addColumn('agency_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('leader_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('store_groups_agency_id')
        .on('store_groups')
        .column('agency_id')
        .execute();
      await db.schema
        .createIndex('store_groups_leader_id')
        .on('store_groups')
        .column('leader_id')
        .execute();

      await db.schema
        .createTable('group_members')
        .addColumn('group_id', 'integer', (c) =>
          c.notNull().references('store_groups.id').onDelete('cascade'),
        )
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addPrimaryKeyConstraint('group_members_pk', ['group_id', 'user_id'])
        .execute();
      await db.schema
        .createIndex('group_members_user_id')
        .on('group_members')
        .column('user_id')
        .execute();

      await db.schema
        .createTable('publisher_connections')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('publisher_key', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('entity_id', 'text')
        .addColumn('location_name', 'text')
        .addColumn('postal_code', 'text')
        .addColumn('address_lines', 'text')
        .addColumn('store_code', 'text')
        .addColumn('log', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('publisher_connections_user_key', ['user_id', 'publisher_key'])
        .execute();

      await db.schema
        .createTable('jobs')
        .addColumn('id', idType, id)
        .addColumn('queue', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(5))
        .addColumn('run_at', 'text', (c) => c.notNull())
        .addColumn('locked_until', 'text')
        .addColumn('last_error', 'text')
        .addColumn('idempotency_key', 'text', (c) => c.unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('jobs_due').on('jobs').columns(['status', 'run_at']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const t of [
        'jobs',
        'publisher_connections',
        'group_members',
        'store_groups',
        'agency_domains',
        'registration_tokens',
        'registration_requests',
        'password_resets',
        'sessions',
        'users',
      ]) {
        await db.schema.dropTable(t).ifExists().execute();
      }
    },
  };
};
