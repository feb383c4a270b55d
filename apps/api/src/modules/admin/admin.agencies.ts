import {
  ACCOUNT_KIND,
  adminAudit,
  DEFAULT_AGENT_CODE,
  ROLE,
  type AdminAgency,
  type AdminAgencyInput,
} from '@tenpo/domain';
import { iso } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import { hashPassword } from '../../lib/passwords';
import type { Actor } from '../../plugins/auth';
import {
  adminPage,
  agencyValues,
  nameOf,
  type AdminContext,
  type AdminList,
  type AdminListRequest,
  type AgencyFiles,
} from './admin.shared';

/** The manager's agencies (spec 3 §7 Admin, ADR 0049): listed, read, created, changed, deleted. */
export function createAdminAgencies(ctx: AdminContext) {
  const {
    repo,
    audit,
    clock,
    presentAgency,
    checkEmail,
    checkPassword,
    checkPrefix,
    saving,
    recordLogin,
  } = ctx;
  return {
    async listAgencies(q: AdminListRequest): Promise<AdminList<AdminAgency>> {
      const total = await repo.countAgencies(q.search);
      const { rows, ...paging } = await adminPage(q, total, (seek) =>
        repo.agencyPage(q.search, seek),
      );
      return { data: rows.map(presentAgency), ...paging };
    },

    async agency(id: number): Promise<AdminAgency> {
      const r = await repo.agency(id);
      if (!r) throw notFound();
      return presentAgency(r);
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
  };
}
