import type { Kysely } from 'kysely';

/**
 * The commit's `res_process_date` (ST02-00101), kept on the charge so that a sale resumed after
 * a crash between commit and sales sends the commit's date, as a sale straight after the commit
 * does (ADR 0058). Null: not committed by this attempt, or committed before this column.
 */
export const paymentCommitDate = () => ({
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('payment_charges')
      .addColumn('commit_process_date', 'text')
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('payment_charges').dropColumn('commit_process_date').execute();
  },
});
