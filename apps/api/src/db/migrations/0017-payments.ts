import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Dialect } from '../kysely';

/**
 * Payments (issue 13, ADR 0050).
 * - `payment_accounts`: one per store: the chosen method and plan (and the plan that takes over
 *   at the next charge), the SBPS customer code its card is stored under with Tenpo's copy of
 *   the masked card, and the billing calendar (paid through, next charge, the day of month);
 * - `payment_charges`: one row per attempt to charge a period. `order_id` is the 32-character
 *   id SBPS refuses to charge twice; (store, period, attempt) is unique, so a second worker or a
 *   retried job finds the row instead of making another; `lease_until` is the claim of the
 *   worker charging it; `origin` the web origin the browser returns to after the hosted page;
 * - `payment_notifications`: every A02-1 received with its verdict, so a tampered or replayed
 *   one is refused and kept.
 */
export const payments = (dialect: Dialect) => {
  const idType = dialect === 'postgres' ? 'serial' : 'integer';
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('payment_accounts')
        .addColumn('user_id', 'integer', (c) =>
          c.primaryKey().references('users.id').onDelete('cascade'),
        )
        .addColumn('method', 'text')
        .addColumn('plan', 'integer')
        .addColumn('next_plan', 'integer')
        .addColumn('cust_code', 'text', (c) => c.unique())
        .addColumn('card_brand', 'text')
        .addColumn('card_masked', 'text')
        .addColumn('card_expiry', 'text')
        // Tokyo days, YYYY-MM-DD.
        .addColumn('paid_through', 'text')
        .addColumn('next_billing_on', 'text')
        .addColumn('billing_day', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('payment_accounts_due')
        .on('payment_accounts')
        .columns(['next_billing_on'])
        .execute();

      await db.schema
        .createTable('payment_charges')
        .addColumn('id', idType, id)
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        // The Tokyo day the paid period starts.
        .addColumn('period', 'text', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('order_id', 'text', (c) => c.notNull().unique())
        // 'purchase': the hosted page (A01-1); 'billing': the stored card (ST01-00111).
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('plan', 'integer', (c) => c.notNull())
        .addColumn('amount', 'integer', (c) => c.notNull())
        // pending | processing | paid | failed
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('lease_until', 'text')
        .addColumn('lease_owner', 'text')
        .addColumn('sps_transaction_id', 'text')
        .addColumn('tracking_id', 'text')
        .addColumn('error_code', 'text')
        .addColumn('origin', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('settled_at', 'text')
        .addUniqueConstraint('payment_charges_attempt', ['user_id', 'period', 'attempt'])
        .execute();

      await db.schema
        .createTable('payment_notifications')
        .addColumn('id', idType, id)
        .addColumn('received_at', 'text', (c) => c.notNull())
        .addColumn('order_id', 'text')
        // accepted | tampered | unknown | replay
        .addColumn('verdict', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('res_result', 'text')
        .addColumn('hash', 'text')
        .addColumn('fields', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('payment_notifications_order')
        .on('payment_notifications')
        .columns(['order_id', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('payment_notifications').ifExists().execute();
      await db.schema.dropTable('payment_charges').ifExists().execute();
      await db.schema.dropTable('payment_accounts').ifExists().execute();
    },
  };
};
