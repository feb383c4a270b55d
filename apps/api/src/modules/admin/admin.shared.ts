import {
  adminAudit,
  adminJa,
  paymentMethodOf,
  PAYMENT_METHODS,
  ROLE,
  type AdminAgency,
  type AdminStore,
  type AdminStoreRow,
  type Cursors,
} from '@tenpo/domain';
import type { UserRow } from '../../db/types';
import { type Clock } from '../../lib/clock';
import { notFound, validationError } from '../../lib/errors';
import { keysetPage, type Seek } from '../../lib/keyset';
import { passwordProblem } from '../../lib/password-policy';
import type { Actor } from '../../plugins/auth';
import type { AuditLog } from '../audit/audit.repo';
import { googleStatusOf } from '../users/users.repo';
import { presentUser } from '../users/users.present';
import type {
  AdminAgencyDbRow,
  AdminRepo,
  AdminStoreDbRow,
  AdminStoreFilter,
  AdminTx,
} from './admin.repo';

/** Which list a store route serves: every store, or only the platform's own customers. */
export type StoreKind = 'stores' | 'customers';

export type AdminList<T> = Cursors & {
  data: T[];
  meta: { current_page: number; last_page: number; per_page: number; total: number };
};

/** What the manager's lists take: a page by number, or next to one shown (ADR 0098). */
export type AdminListRequest = {
  page: number;
  per_page: number;
  search?: string;
  after?: string;
  before?: string;
};

/** A page past the last one is refused with the range (ADR 0049), not answered empty. */
export const checkPage = (page: number, perPage: number, total: number) => {
  const last = Math.max(1, Math.ceil(total / perPage));
  if (page > last) throw validationError({ page: [adminJa.pageBeyondEnd(last)] });
  return last;
};

/**
 * A page of a manager's list in id order, by number or next to a cursor (ADR 0098). A page
 * number past the last is refused with the range (ADR 0049), as before.
 */
export async function adminPage<R extends { id: number }>(
  q: AdminListRequest,
  total: number,
  read: (seek: Seek) => Promise<R[]>,
) {
  if (!q.after && !q.before) checkPage(q.page, q.per_page, total);
  const list = await keysetPage(
    { page: q.page, perPage: q.per_page, after: q.after, before: q.before },
    { total, order: 'id,asc', keyTypes: ['number'], keyOf: (r) => [r.id], read },
  );
  return {
    rows: list.rows,
    meta: {
      current_page: list.current_page,
      last_page: list.last_page,
      per_page: q.per_page,
      total,
    },
    next_cursor: list.next_cursor,
    prev_cursor: list.prev_cursor,
  };
}

/** The files an agency form may carry, already stored (their `/uploads/…` paths). */
export type AgencyFiles = { logo?: string; favicon?: string };

/** A unique index said no: the e-mail or the prefix was taken between our check and the write. */
export const uniqueField = (err: unknown): 'email' | 'prefix' | null => {
  const e = err as { code?: string; message?: string; constraint?: string; detail?: string };
  if (e.code !== 'SQLITE_CONSTRAINT_UNIQUE' && e.code !== '23505') return null;
  const text = `${e.message ?? ''} ${e.constraint ?? ''} ${e.detail ?? ''}`;
  if (text.includes('prefix')) return 'prefix';
  if (text.includes('email')) return 'email';
  return null;
};

export const storeValues = (u: UserRow) => ({
  email: u.email,
  name: u.name,
  company_name: u.company_name,
  store_name: u.store_name,
  phone: u.phone,
  agent_code: u.agent_code,
  status: u.status,
  role: u.role,
  agency_id: u.agency_id,
});

export const agencyValues = (
  u: UserRow,
  d: { prefix: string; title: string; favicon_url: string | null } | undefined,
) => ({
  email: u.email,
  name: u.name,
  company_name: u.company_name,
  phone: u.phone,
  agent_code: u.agent_code,
  status: u.status,
  logo_url: u.logo_url,
  prefix: d?.prefix ?? null,
  title: d?.title ?? null,
  favicon_url: d?.favicon_url ?? null,
});

export const nameOf = (u: Pick<UserRow, 'store_name' | 'company_name' | 'email'>) =>
  u.store_name ?? u.company_name ?? u.email;

export type AdminContext = ReturnType<typeof createAdminContext>;

export type AdminDeps = { repo: AdminRepo; audit: AuditLog; clock: Clock };

/** What the admin's resources share: how rows are shown, the checks of a form, the audit lines. */
export function createAdminContext(deps: AdminDeps) {
  const { audit, clock } = deps;

  const presentAgency = (r: AdminAgencyDbRow): AdminAgency => ({
    id: r.id,
    email: r.email,
    name: r.name,
    company_name: r.company_name,
    phone: r.phone,
    agent_code: r.agent_code,
    status: r.status,
    logo_url: r.logo_url,
    prefix: r.prefix,
    title: r.title,
    favicon_url: r.favicon_url,
    store_count: r.store_count,
    google_connected: r.google_connected,
    payment_method: paymentMethodOf(r.agent_code),
    created_at: r.created_at,
  });

  const presentStoreRow = (r: AdminStoreDbRow, now: Date): AdminStoreRow => {
    const u = presentUser(r, now, r.agency_logo);
    return {
      id: r.id,
      name: nameOf(r),
      status: r.status,
      role: r.role,
      in_trial: u.in_trial,
      agency_logo: u.agency_logo,
      agent_code: r.agent_code,
      company_name: r.company_name,
      person_in_charge: r.name,
      email: r.email,
      google_status: googleStatusOf(r.google_connection),
      payment_fail: r.payment_fail === 1,
      store_name: r.store_name,
      phone: r.phone,
      logo_url: r.logo_url,
      agency_id: r.agency_id,
      agency_name: r.agency_name,
      app_name: r.app_name,
      // The method the store chose (ADR 0050); derived from the agent code until it has chosen.
      payment_method:
        PAYMENT_METHODS.find((m) => m === r.payment_account_method) ??
        paymentMethodOf(r.agent_code),
      created_at: r.created_at,
    };
  };

  const presentStore = (r: AdminStoreDbRow): AdminStore => ({
    ...presentUser(r, clock.now(), r.agency_logo),
    agency_id: r.agency_id,
  });

  const filterOf = (kind: StoreKind, agencyId?: number): AdminStoreFilter =>
    kind === 'customers' ? { customersOnly: true } : { agencyId };

  /** The store this route may name: a customer route names customers only. */
  const findStore = async (tx: AdminTx, kind: StoreKind, id: number) => {
    const row = await tx.store(id, filterOf(kind));
    if (!row) throw notFound();
    return row;
  };

  const checkEmail = async (tx: AdminTx, email: string, exceptId?: number) => {
    if (await tx.emailTaken(email, exceptId))
      throw validationError({ email: [adminJa.emailTaken] });
  };

  /** A password set here is held to the same rules as one the user sets (ADR 0065). */
  const checkPassword = (input: {
    password?: string | null;
    email: string;
    name: string;
    company_name?: string | null;
    store_name?: string | null;
  }) => {
    if (!input.password) return;
    const problem = passwordProblem(input.password, {
      email: input.email,
      name: input.name,
      companyName: input.company_name ?? null,
      storeName: input.store_name ?? null,
    });
    if (problem) throw validationError({ password: [problem] });
  };

  const checkPrefix = async (tx: AdminTx, prefix: string, agencyId?: number) => {
    const owner = await tx.prefixOwner(prefix);
    if (owner !== undefined && owner !== agencyId)
      throw validationError({ prefix: [adminJa.prefixTaken] });
  };

  /** Runs a change; a unique index's refusal reads as the field's Japanese message. */
  const saving = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      const field = uniqueField(err);
      if (field === 'email') throw validationError({ email: [adminJa.emailTaken] });
      if (field === 'prefix') throw validationError({ prefix: [adminJa.prefixTaken] });
      throw err;
    }
  };

  /** The account row of the log: the login (e-mail, password) was created or changed. */
  const recordLogin = async (
    tx: Parameters<Parameters<AdminRepo['transaction']>[0]>[1],
    actor: Actor,
    target: UserRow,
    change: { before: string | null; passwordSet: boolean },
  ) => {
    const emailChanged = change.before !== null && change.before !== target.email;
    if (!emailChanged && !change.passwordSet && change.before !== null) return;
    const isAgency = target.role === ROLE.agency;
    const what = [emailChanged ? 'メールアドレス' : null, change.passwordSet ? 'パスワード' : null]
      .filter(Boolean)
      .join('・');
    await audit.record(
      {
        actor: actor.user,
        entity: 'account',
        entityId: target.id,
        action: change.before === null ? 'create' : 'update',
        storeId: isAgency ? null : target.id,
        agencyId: isAgency ? target.id : target.agency_id,
        summary:
          change.before === null
            ? adminAudit.loginCreated(nameOf(target))
            : adminAudit.loginChanged(nameOf(target), what),
        before: change.before === null ? null : { email: change.before },
        after: { email: target.email },
      },
      tx,
    );
  };

  /**
   * A store that changed agency leaves the groups of its old agency (a group holds its own
   * agency's stores only); their leaders' flags are recomputed.
   */
  const leaveForeignGroups = async (
    tx: AdminTx,
    trx: Parameters<Parameters<AdminRepo['transaction']>[0]>[1],
    actor: Actor,
    store: UserRow,
  ) => {
    const foreign = await tx.foreignGroupsOf(store.id, store.agency_id);
    if (foreign.length === 0) return;
    await tx.leaveGroups(
      store.id,
      foreign.map((g) => g.id),
    );
    await tx.recomputeLeaders([store.id]);
    for (const g of foreign)
      await audit.record(
        {
          actor: actor.user,
          entity: 'group',
          entityId: g.id,
          action: 'update',
          agencyId: g.agency_id,
          summary: adminAudit.storeLeftGroups(nameOf(store)),
          before: { store_id: store.id, leader_id: g.leader_id },
          after: { store_id: null, leader_id: g.leader_id === store.id ? null : g.leader_id },
        },
        trx,
      );
  };

  return {
    ...deps,
    presentAgency,
    presentStoreRow,
    presentStore,
    filterOf,
    findStore,
    checkEmail,
    checkPassword,
    checkPrefix,
    saving,
    recordLogin,
    leaveForeignGroups,
  };
}
