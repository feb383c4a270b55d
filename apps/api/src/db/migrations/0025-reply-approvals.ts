import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import type { Dialect } from '../kysely';

/**
 * Approval of replies (issue 25 item 6, ADR 0093).
 * - `approval_settings`: an agency's rule, per agency (`replies`, 0/1: its stores' replies go
 *   out only once approved). No row is no approval.
 * - `reply_approvals`: one request for approval of a reply to a review, through its states
 *   (domain `APPROVAL_STATES`). At most one open request (`pending` or `failed`) per review: a
 *   partial unique index, so two tabs asking at once make one. The send is claimed by moving
 *   the row out of its open state in one conditional update: one approver sends, once.
 */
export const replyApprovals = (dialect: Dialect) => {
  const idType = dialect === 'postgres' ? 'serial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('approval_settings')
        .addColumn('agency_id', 'integer', (c) =>
          c.primaryKey().references('users.id').onDelete('cascade'),
        )
        .addColumn('replies', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('reply_approvals')
        .addColumn('id', idType, id)
        .addColumn('review_id', 'integer', (c) =>
          c.notNull().references('reviews.id').onDelete('cascade'),
        )
        .addColumn('store_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('comment', 'text', (c) => c.notNull())
        .addColumn('override', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('author_email', 'text', (c) => c.notNull())
        .addColumn('decided_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('decided_by_email', 'text')
        .addColumn('decided_at', 'text')
        .addColumn('note', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'text')
        .execute();
      await sql`create unique index reply_approvals_open on reply_approvals (review_id) where state in ('pending', 'failed')`.execute(
        db,
      );
      await db.schema
        .createIndex('reply_approvals_store')
        .on('reply_approvals')
        .columns(['store_id', 'state', 'created_at'])
        .execute();
      await db.schema
        .createIndex('reply_approvals_review')
        .on('reply_approvals')
        .columns(['review_id', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('reply_approvals').ifExists().execute();
      await db.schema.dropTable('approval_settings').ifExists().execute();
    },
  };
};
