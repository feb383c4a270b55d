import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import type { Dialect } from '../kysely';

/**
 * Approval of posts (issue 25 item 6, ADR 0095), the replies' flow (0025) for posts.
 * - `approval_settings.posts` (0/1): the agency's stores' posts wait for approval.
 * - `post_approvals`: one request per post through its states (domain `POST_APPROVAL_STATES`).
 *   At most one `pending` request per post (a partial unique index). Approving moves the row
 *   out of `pending` in one conditional update, in the transaction that schedules the post's
 *   targets and queues their jobs: one approver schedules it, once.
 */
export const postApprovals = (dialect: Dialect) => {
  const idType = dialect === 'postgres' ? 'serial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('approval_settings')
        .addColumn('posts', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('post_approvals')
        .addColumn('id', idType, id)
        .addColumn('post_id', 'integer', (c) =>
          c.notNull().references('posts.id').onDelete('cascade'),
        )
        .addColumn('store_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('author_email', 'text', (c) => c.notNull())
        .addColumn('decided_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('decided_by_email', 'text')
        .addColumn('decided_at', 'text')
        .addColumn('note', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await sql`create unique index post_approvals_open on post_approvals (post_id) where state = 'pending'`.execute(
        db,
      );
      await db.schema
        .createIndex('post_approvals_store')
        .on('post_approvals')
        .columns(['store_id', 'state', 'created_at'])
        .execute();
      await db.schema
        .createIndex('post_approvals_post')
        .on('post_approvals')
        .columns(['post_id', 'id'])
        .execute();
      await db.schema
        .createIndex('post_approvals_due')
        .on('post_approvals')
        .columns(['state', 'expires_at'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('post_approvals').ifExists().execute();
      await db.schema.alterTable('approval_settings').dropColumn('posts').execute();
    },
  };
};
