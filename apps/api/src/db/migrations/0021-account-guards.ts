import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Dialect } from '../kysely';

/**
 * Account guards (issue 22, ADR 0065):
 * - `login_throttle`: failed sign-ins per e-mail address (lower case), whether or not an account
 *   has it, so that the answer tells nothing about who is registered. Kept in the database so
 *   that every API process counts the same failures. `locked_until`: no password is checked for
 *   the address before it (ISO instant, null: none). `notified`: 1 once the owner was mailed in
 *   this run of failures.
 * - `email_changes`: a new login address waiting for its confirmation link (only the token's
 *   SHA-256 is kept, as for password resets).
 */
export const accountGuards = (dialect: Dialect) => {
  const idType = dialect === 'postgres' ? 'serial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('login_throttle')
        .addColumn('email', 'text', (c) => c.primaryKey())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('last_failed_at', 'text', (c) => c.notNull())
        .addColumn('locked_until', 'text')
        .addColumn('notified', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('email_changes')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('new_email', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema
        .createIndex('email_changes_user')
        .on('email_changes')
        .column('user_id')
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('email_changes').ifExists().execute();
      await db.schema.dropTable('login_throttle').ifExists().execute();
    },
  };
};
