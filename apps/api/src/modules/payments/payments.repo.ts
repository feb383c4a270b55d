import type { Kysely, Transaction } from 'kysely';
import type {
  ChargeState,
  Database,
  NotificationVerdict,
  PaymentAccountRow,
  PaymentChargeRow,
  PaymentChargesTable,
  PaymentAccountsTable,
  UserRow,
} from '../../db/types';
import type { Insertable, Updateable } from 'kysely';

type Q = Kysely<Database> | Transaction<Database>;

export type AccountPatch = Omit<Updateable<PaymentAccountsTable>, 'user_id' | 'created_at'>;
export type NewCharge = Omit<
  Insertable<PaymentChargesTable>,
  | 'id'
  | 'lease_until'
  | 'lease_owner'
  | 'sps_transaction_id'
  | 'tracking_id'
  | 'error_code'
  | 'settled_at'
>;

/** A store due for its monthly charge. */
export type DueAccount = { user_id: number; next_billing_on: string };

const queries = (db: Q) => ({
  account: (userId: number): Promise<PaymentAccountRow | undefined> =>
    db.selectFrom('payment_accounts').selectAll().where('user_id', '=', userId).executeTakeFirst(),

  /** The store's row, made on first use (two first uses at once both find the one row). */
  async ensureAccount(userId: number, now: string): Promise<PaymentAccountRow> {
    await db
      .insertInto('payment_accounts')
      .values({
        user_id: userId,
        method: null,
        plan: null,
        next_plan: null,
        cust_code: null,
        card_brand: null,
        card_masked: null,
        card_expiry: null,
        paid_through: null,
        next_billing_on: null,
        billing_day: null,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
    return db
      .selectFrom('payment_accounts')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
  },

  async updateAccount(userId: number, patch: AccountPatch): Promise<void> {
    await db.updateTable('payment_accounts').set(patch).where('user_id', '=', userId).execute();
  },

  /** Sets the customer code only if none is set yet; returns the one in force. */
  async ensureCustCode(userId: number, custCode: string, now: string): Promise<string> {
    await db
      .updateTable('payment_accounts')
      .set({ cust_code: custCode, updated_at: now })
      .where('user_id', '=', userId)
      .where('cust_code', 'is', null)
      .execute();
    const row = await db
      .selectFrom('payment_accounts')
      .select('cust_code')
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return row.cust_code as string;
  },

  /** The store's user row, as it is now (in the transaction). */
  store: (userId: number): Promise<UserRow> =>
    db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow(),

  async setUser(
    userId: number,
    patch: { role?: number; payment_fail?: number; updated_at: string },
  ): Promise<void> {
    await db.updateTable('users').set(patch).where('id', '=', userId).execute();
  },

  charge: (id: number): Promise<PaymentChargeRow | undefined> =>
    db.selectFrom('payment_charges').selectAll().where('id', '=', id).executeTakeFirst(),

  chargeByOrder: (orderId: string): Promise<PaymentChargeRow | undefined> =>
    db.selectFrom('payment_charges').selectAll().where('order_id', '=', orderId).executeTakeFirst(),

  /** The period's attempts, newest first. */
  attempts: (userId: number, period: string): Promise<PaymentChargeRow[]> =>
    db
      .selectFrom('payment_charges')
      .selectAll()
      .where('user_id', '=', userId)
      .where('period', '=', period)
      .orderBy('attempt', 'desc')
      .execute(),

  /** The store's latest purchase still open (the hosted page left without a result). */
  openPurchase: (userId: number): Promise<PaymentChargeRow | undefined> =>
    db
      .selectFrom('payment_charges')
      .selectAll()
      .where('user_id', '=', userId)
      .where('kind', '=', 'purchase')
      .orderBy('id', 'desc')
      .executeTakeFirst(),

  /**
   * The attempt's row: made now, or the one already made by an earlier run or another worker
   * ((store, period, attempt) is unique; the loser of a race inserts nothing and reads it).
   */
  async chargeFor(c: NewCharge): Promise<PaymentChargeRow> {
    await db
      .insertInto('payment_charges')
      .values(c)
      .onConflict((oc) => oc.columns(['user_id', 'period', 'attempt']).doNothing())
      .execute();
    return db
      .selectFrom('payment_charges')
      .selectAll()
      .where('user_id', '=', c.user_id)
      .where('period', '=', c.period)
      .where('attempt', '=', c.attempt)
      .executeTakeFirstOrThrow();
  },

  /**
   * Claims an open charge for one worker until `until`: only one UPDATE can match while the
   * row is pending, or processing with its lease run out (the claimant died).
   */
  async claim(id: number, owner: string, now: string, until: string): Promise<boolean> {
    const r = await db
      .updateTable('payment_charges')
      .set({ state: 'processing', lease_owner: owner, lease_until: until, updated_at: now })
      .where('id', '=', id)
      .where((eb) =>
        eb.or([
          eb('state', '=', 'pending'),
          eb.and([eb('state', '=', 'processing'), eb('lease_until', '<', now)]),
        ]),
      )
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },

  /** Keeps what SBPS said of the authorisation, so a rerun resumes instead of charging again. */
  async noteAuthorisation(
    id: number,
    owner: string,
    v: { tracking_id: string; sps_transaction_id: string | null; updated_at: string },
  ): Promise<void> {
    await db
      .updateTable('payment_charges')
      .set(v)
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .execute();
  },

  /** The commit's process date, kept for a sale resumed after a crash (ADR 0058). */
  async noteCommit(
    id: number,
    owner: string,
    v: { commit_process_date: string; updated_at: string },
  ): Promise<void> {
    await db
      .updateTable('payment_charges')
      .set(v)
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .execute();
  },

  /** Gives the claim back (the provider is down): the next run claims it again at once. */
  async release(id: number, owner: string, now: string): Promise<void> {
    await db
      .updateTable('payment_charges')
      .set({ state: 'pending', lease_owner: null, lease_until: null, updated_at: now })
      .where('id', '=', id)
      .where('state', '=', 'processing')
      .where('lease_owner', '=', owner)
      .execute();
  },

  /**
   * Settles an open charge; false when it was settled already (a replayed notification, the
   * other worker). `owner`: only the claimant of a leased charge may.
   */
  async settle(
    id: number,
    to: Extract<ChargeState, 'paid' | 'failed'>,
    v: {
      tracking_id?: string | null;
      error_code?: string | null;
      now: string;
      owner?: string;
    },
  ): Promise<boolean> {
    let q = db
      .updateTable('payment_charges')
      .set({
        state: to,
        settled_at: v.now,
        updated_at: v.now,
        lease_until: null,
        ...(v.tracking_id ? { tracking_id: v.tracking_id } : {}),
        ...(v.error_code !== undefined ? { error_code: v.error_code } : {}),
      })
      .where('id', '=', id);
    q = v.owner
      ? q.where('state', '=', 'processing').where('lease_owner', '=', v.owner)
      : q.where('state', 'in', ['pending', 'processing']);
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  },

  /** Stores paying us by card whose next charge is due (a failed period waits for a new card). */
  due: (today: string): Promise<DueAccount[]> =>
    db
      .selectFrom('payment_accounts as a')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .select(['a.user_id', 'a.next_billing_on'])
      .where('a.next_billing_on', '<=', today)
      .where('a.method', '=', 'credit_card')
      .where('a.cust_code', 'is not', null)
      .where('a.plan', 'is not', null)
      .where('u.payment_fail', '=', 0)
      .where('u.status', '=', 1)
      .orderBy('a.user_id')
      .execute() as Promise<DueAccount[]>,

  async recordNotification(n: {
    received_at: string;
    order_id: string | null;
    verdict: NotificationVerdict;
    reason: string | null;
    res_result: string | null;
    hash: string | null;
    fields: string;
  }): Promise<void> {
    await db.insertInto('payment_notifications').values(n).execute();
  },
});

export type PaymentsQueries = ReturnType<typeof queries>;
export type PaymentsRepo = PaymentsQueries & {
  transaction<T>(fn: (q: PaymentsQueries, trx: Transaction<Database>) => Promise<T>): Promise<T>;
};

export function createPaymentsRepo(db: Kysely<Database>): PaymentsRepo {
  return {
    ...queries(db),
    transaction: (fn) => db.transaction().execute((trx) => fn(queries(trx), trx)),
  };
}
