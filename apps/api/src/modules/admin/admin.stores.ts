import {
  ACCOUNT_KIND,
  adminAudit,
  adminJa,
  FREE_TRIAL_DAYS,
  ROLE,
  type AdminStore,
  type AdminStoreInput,
  type AdminStoreRow,
} from '@tenpo/domain';
import { addMs, DAY, iso } from '../../lib/clock';
import { validationError } from '../../lib/errors';
import { hashPassword } from '../../lib/passwords';
import type { Actor } from '../../plugins/auth';
import {
  adminPage,
  nameOf,
  storeValues,
  type AdminContext,
  type AdminList,
  type AdminListRequest,
  type StoreKind,
} from './admin.shared';

/** A trial started now ends after FREE_TRIAL_DAYS, as at registration. */
const trialEndsFrom = (now: Date): string => iso(addMs(now, FREE_TRIAL_DAYS * DAY));

/** The manager's stores and customers (spec 3 §7 Admin, ADR 0049): listed, read, created, changed, deleted. */
export function createAdminStores(ctx: AdminContext) {
  const {
    repo,
    audit,
    clock,
    presentStoreRow,
    presentStore,
    filterOf,
    findStore,
    checkEmail,
    checkPassword,
    saving,
    recordLogin,
    leaveForeignGroups,
  } = ctx;
  return {
    async listStores(
      kind: StoreKind,
      q: AdminListRequest & { agency_id?: number; group_id?: number },
    ): Promise<AdminList<AdminStoreRow>> {
      const group = kind === 'stores' && q.group_id !== undefined ? { groupId: q.group_id } : {};
      const f = { ...filterOf(kind, q.agency_id), ...group, search: q.search };
      const total = await repo.countStores(f);
      const { rows, ...paging } = await adminPage(q, total, (seek) => repo.storePage(f, seek));
      // The page's reviews (issue 25 item 7), as in the agency's lists: the 平均評価 and 未返信
      // columns of /overview/agencies/{id}.
      const reviews = await repo.reviewSummaries(rows.map((r) => r.id));
      const now = clock.now();
      return {
        data: rows.map((r) => ({ ...presentStoreRow(r, now), reviews: reviews.get(r.id) })),
        ...paging,
      };
    },

    async store(kind: StoreKind, id: number): Promise<AdminStore> {
      return presentStore(await findStore(repo, kind, id));
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
            trial_ends_at: input.role === ROLE.freeTrial ? trialEndsFrom(nowDate) : null,
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
            ...(startsTrial ? { trial_ends_at: trialEndsFrom(nowDate) } : {}),
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
