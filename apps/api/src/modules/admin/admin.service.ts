import {
  ACCOUNT_KIND,
  adminAudit,
  adminJa,
  DEFAULT_AGENT_CODE,
  FREE_TRIAL_DAYS,
  paymentMethodOf,
  PAYMENT_METHODS,
  ROLE,
  type AdminAgency,
  type AdminAgencyInput,
  type AdminStore,
  type AdminStoreInput,
  type AdminStoreRow,
} from '@tenpo/domain';
import type { UserRow } from '../../db/types';
import { iso, type Clock } from '../../lib/clock';
import { notFound, validationError } from '../../lib/errors';
import { hashPassword } from '../../lib/passwords';
import { passwordProblem } from '../../lib/password-policy';
import type { Actor } from '../../plugins/auth';
import type { AuditLog } from '../audit/audit.repo';
import { CONNECTED_STATUSES } from '../users/users.repo';
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

export type AdminList<T> = {
  data: T[];
  meta: { current_page: number; last_page: number; per_page: number; total: number };
};

/** The files an agency form may carry, already stored (their `/uploads/…` paths). */
export type AgencyFiles = { logo?: string; favicon?: string };

const DAY_MS = 24 * 60 * 60 * 1000;

/** A page past the last one is refused with the range (ADR 0049), not answered empty. */
const checkPage = (page: number, perPage: number, total: number) => {
  const last = Math.max(1, Math.ceil(total / perPage));
  if (page > last) throw validationError({ page: [adminJa.pageBeyondEnd(last)] });
  return last;
};

/** A unique index said no: the e-mail or the prefix was taken between our check and the write. */
const uniqueField = (err: unknown): 'email' | 'prefix' | null => {
  const e = err as { code?: string; message?: string; constraint?: string; detail?: string };
  if (e.code !== 'SQLITE_CONSTRAINT_UNIQUE' && e.code !== '23505') return null;
  const text = `${e.message ?? ''} ${e.constraint ?? ''} ${e.detail ?? ''}`;
  if (text.includes('prefix')) return 'prefix';
  if (text.includes('email')) return 'email';
  return null;
};

const storeValues = (u: UserRow) => ({
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

const agencyValues = (
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

const nameOf = (u: Pick<UserRow, 'store_name' | 'company_name' | 'email'>) =>
  u.store_name ?? u.company_name ?? u.email;

export type AdminService = ReturnType<typeof createAdminService>;

export function createAdminService(deps: { repo: AdminRepo; audit: AuditLog; clock: Clock }) {
  const { repo, audit, clock } = deps;

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
      google_status:
        r.google_connection !== null && CONNECTED_STATUSES.includes(Number(r.google_connection))
          ? 1
          : 0,
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
    async listAgencies(q: {
      page: number;
      per_page: number;
      search?: string;
    }): Promise<AdminList<AdminAgency>> {
      const total = await repo.countAgencies(q.search);
      const last = checkPage(q.page, q.per_page, total);
      const rows = await repo.agencyPage(q.search, q.page, q.per_page);
      return {
        data: rows.map(presentAgency),
        meta: { current_page: q.page, last_page: last, per_page: q.per_page, total },
      };
    },

    async listStores(
      kind: StoreKind,
      q: { page: number; per_page: number; search?: string; agency_id?: number; group_id?: number },
    ): Promise<AdminList<AdminStoreRow>> {
      const group = kind === 'stores' && q.group_id !== undefined ? { groupId: q.group_id } : {};
      const f = { ...filterOf(kind, q.agency_id), ...group, search: q.search };
      const total = await repo.countStores(f);
      const last = checkPage(q.page, q.per_page, total);
      const rows = await repo.storePage(f, q.page, q.per_page);
      const now = clock.now();
      return {
        data: rows.map((r) => presentStoreRow(r, now)),
        meta: { current_page: q.page, last_page: last, per_page: q.per_page, total },
      };
    },

    async agency(id: number): Promise<AdminAgency> {
      const r = await repo.agency(id);
      if (!r) throw notFound();
      return presentAgency(r);
    },

    async store(kind: StoreKind, id: number): Promise<AdminStore> {
      return presentStore(await findStore(repo, kind, id));
    },

    async createAgency(actor: Actor, input: AdminAgencyInput, files: AgencyFiles) {
      checkPassword(input);
      const hash = await hashPassword(input.password ?? '');
      const now = iso(clock.now());
      const id = await saving(() =>
        repo.transaction(async (tx, trx) => {
          await checkEmail(tx, input.email);
          await checkPrefix(tx, input.prefix);
          const row = await tx.insertUser({
            email: input.email,
            password_hash: hash,
            name: input.name,
            role: ROLE.agency,
            account_kind: ACCOUNT_KIND.agency,
            is_leader: 0,
            agreed_terms: 0,
            phone: input.phone,
            company_name: input.company_name,
            store_name: null,
            logo_url: files.logo ?? null,
            agent_code: input.agent_code,
            trial_ends_at: null,
            payment_fail: 0,
            agency_id: null,
            status: input.status,
            created_at: now,
            updated_at: now,
          });
          const domain = {
            prefix: input.prefix,
            title: input.title,
            favicon_url: files.favicon ?? null,
          };
          await tx.saveDomain(row.id, domain, now);
          await audit.record(
            {
              actor: actor.user,
              entity: 'agency',
              entityId: row.id,
              action: 'create',
              storeId: null,
              agencyId: row.id,
              summary: adminAudit.agencyCreated(input.company_name),
              after: agencyValues(row, domain),
            },
            trx,
          );
          await recordLogin(trx, actor, row, { before: null, passwordSet: true });
          return row.id;
        }),
      );
      return this.agency(id);
    },

    async updateAgency(actor: Actor, id: number, input: AdminAgencyInput, files: AgencyFiles) {
      checkPassword(input);
      const hash = input.password ? await hashPassword(input.password) : null;
      const now = iso(clock.now());
      await saving(() =>
        repo.transaction(async (tx, trx) => {
          const before = await tx.agency(id);
          if (!before) throw notFound();
          await checkEmail(tx, input.email, id);
          await checkPrefix(tx, input.prefix, id);
          const beforeDomain = await tx.domainOf(id);
          const row = await tx.updateUser(id, {
            email: input.email,
            name: input.name,
            phone: input.phone,
            company_name: input.company_name,
            agent_code: input.agent_code,
            status: input.status,
            ...(files.logo ? { logo_url: files.logo } : {}),
            ...(hash ? { password_hash: hash } : {}),
            updated_at: now,
          });
          const domain = {
            prefix: input.prefix,
            title: input.title,
            favicon_url: files.favicon ?? beforeDomain?.favicon_url ?? null,
          };
          await tx.saveDomain(id, domain, now);
          if (hash) await tx.revokeSessions(id, now);
          await audit.recordUpdate(
            {
              actor: actor.user,
              entity: 'agency',
              entityId: id,
              storeId: null,
              agencyId: id,
              summary: adminAudit.agencyUpdated(input.company_name),
            },
            agencyValues(before, beforeDomain),
            agencyValues(row, domain),
            trx,
          );
          await recordLogin(trx, actor, row, { before: before.email, passwordSet: hash !== null });
        }),
      );
      return this.agency(id);
    },

    /**
     * Deletes an agency. Its stores become customers of the platform (agent code back to the
     * default, so they pay the platform), its groups go and their leaders' flags are recomputed,
     * posts it wrote stay with their stores; its domain and sessions go with it (ADR 0049).
     */
    async deleteAgency(actor: Actor, id: number): Promise<{ id: number; detached_stores: number }> {
      const now = iso(clock.now());
      return repo.transaction(async (tx, trx) => {
        const agency = await tx.agency(id);
        if (!agency) throw notFound();
        const domain = await tx.domainOf(id);
        const agencyName = agency.company_name ?? agency.email;
        const stores = await tx.storesOf(id);
        const groups = await tx.groupsOf(id);
        for (const g of groups)
          await audit.record(
            {
              actor: actor.user,
              entity: 'group',
              entityId: g.id,
              action: 'delete',
              agencyId: id,
              summary: adminAudit.groupRemovedWithAgency(g.name, agencyName),
              before: { name: g.name, leader_id: g.leader_id },
            },
            trx,
          );
        await tx.deleteGroups(groups.map((g) => g.id));
        await tx.recomputeLeaders(
          groups.flatMap((g) => (g.leader_id === null ? [] : [g.leader_id])),
        );
        const detach = { agent_code: DEFAULT_AGENT_CODE, updated_at: now };
        await tx.detachStores(id, detach);
        for (const s of stores)
          await audit.record(
            {
              actor: actor.user,
              entity: 'store',
              entityId: s.id,
              action: 'update',
              storeId: s.id,
              agencyId: id,
              summary: adminAudit.storeDetached(nameOf(s), agencyName),
              before: { agency_id: id, agent_code: s.agent_code },
              after: { agency_id: null, agent_code: DEFAULT_AGENT_CODE },
            },
            trx,
          );
        await tx.handOverAuthoredPosts(id);
        await tx.deleteUser(id);
        await audit.record(
          {
            actor: actor.user,
            entity: 'agency',
            entityId: id,
            action: 'delete',
            storeId: null,
            agencyId: id,
            summary: adminAudit.agencyDeleted(agencyName),
            before: {
              ...agencyValues(agency, domain),
              store_count: stores.length,
              group_count: groups.length,
            },
          },
          trx,
        );
        return { id, detached_stores: stores.length };
      });
    },

    async createStore(actor: Actor, kind: StoreKind, input: AdminStoreInput) {
      checkPassword(input);
      const hash = await hashPassword(input.password ?? '');
      const nowDate = clock.now();
      const now = iso(nowDate);
      const agencyId = kind === 'customers' ? null : input.agency_id;
      const id = await saving(() =>
        repo.transaction(async (tx, trx) => {
          await checkEmail(tx, input.email);
          if (agencyId !== null && !(await tx.isAgency(agencyId)))
            throw validationError({ agency_id: [adminJa.agencyUnknown] });
          const row = await tx.insertUser({
            email: input.email,
            password_hash: hash,
            name: input.name,
            role: input.role,
            account_kind: ACCOUNT_KIND.store,
            is_leader: 0,
            agreed_terms: 0,
            phone: input.phone,
            company_name: input.company_name,
            store_name: input.store_name,
            logo_url: null,
            agent_code: input.agent_code,
            trial_ends_at:
              input.role === ROLE.freeTrial
                ? iso(new Date(nowDate.getTime() + FREE_TRIAL_DAYS * DAY_MS))
                : null,
            payment_fail: 0,
            agency_id: agencyId,
            status: input.status,
            created_at: now,
            updated_at: now,
          });
          await audit.record(
            {
              actor: actor.user,
              entity: 'store',
              entityId: row.id,
              action: 'create',
              storeId: row.id,
              agencyId,
              summary: (agencyId === null ? adminAudit.customerCreated : adminAudit.storeCreated)(
                input.store_name,
              ),
              after: storeValues(row),
            },
            trx,
          );
          await recordLogin(trx, actor, row, { before: null, passwordSet: true });
          return row.id;
        }),
      );
      return this.store('stores', id);
    },

    async updateStore(actor: Actor, kind: StoreKind, id: number, input: AdminStoreInput) {
      checkPassword(input);
      const hash = input.password ? await hashPassword(input.password) : null;
      const nowDate = clock.now();
      const now = iso(nowDate);
      await saving(() =>
        repo.transaction(async (tx, trx) => {
          const before = await findStore(tx, kind, id);
          // A customer stays a customer on its own route; the store route may move it.
          const agencyId = kind === 'customers' ? null : input.agency_id;
          await checkEmail(tx, input.email, id);
          if (agencyId !== null && !(await tx.isAgency(agencyId)))
            throw validationError({ agency_id: [adminJa.agencyUnknown] });
          const startsTrial = input.role === ROLE.freeTrial && before.trial_ends_at === null;
          const row = await tx.updateUser(id, {
            email: input.email,
            name: input.name,
            phone: input.phone,
            company_name: input.company_name,
            store_name: input.store_name,
            agent_code: input.agent_code,
            status: input.status,
            role: input.role,
            agency_id: agencyId,
            ...(startsTrial
              ? { trial_ends_at: iso(new Date(nowDate.getTime() + FREE_TRIAL_DAYS * DAY_MS)) }
              : {}),
            ...(hash ? { password_hash: hash } : {}),
            updated_at: now,
          });
          if (before.agency_id !== row.agency_id) await leaveForeignGroups(tx, trx, actor, row);
          if (hash) await tx.revokeSessions(id, now);
          await audit.recordUpdate(
            {
              actor: actor.user,
              entity: 'store',
              entityId: id,
              storeId: id,
              agencyId: row.agency_id ?? before.agency_id,
              summary: (row.agency_id === null
                ? adminAudit.customerUpdated
                : adminAudit.storeUpdated)(nameOf(row)),
            },
            storeValues(before),
            storeValues(row),
            trx,
          );
          await recordLogin(trx, actor, row, { before: before.email, passwordSet: hash !== null });
        }),
      );
      return this.store('stores', id);
    },

    /**
     * Deletes a store: its posts, connections and credentials, photos, sessions and group
     * memberships go with it (foreign keys cascade); a group it led loses its leader, and
     * posts it wrote for other stores stay with them (ADR 0049).
     */
    async deleteStore(actor: Actor, kind: StoreKind, id: number) {
      return repo.transaction(async (tx, trx) => {
        const store = await findStore(tx, kind, id);
        const footprint = await tx.storeFootprint(id);
        const led = (await tx.foreignGroupsOf(id, null)).filter((g) => g.leader_id === id);
        await tx.handOverAuthoredPosts(id);
        await tx.deleteUser(id);
        await audit.record(
          {
            actor: actor.user,
            entity: 'store',
            entityId: id,
            action: 'delete',
            storeId: id,
            agencyId: store.agency_id,
            summary: (store.agency_id === null
              ? adminAudit.customerDeleted
              : adminAudit.storeDeleted)(nameOf(store)),
            before: {
              ...storeValues(store),
              ...footprint,
              led_groups: led.map((g) => g.id),
            },
          },
          trx,
        );
        return { id, detached_stores: 0 };
      });
    },
  };
}
