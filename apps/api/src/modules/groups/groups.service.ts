import {
  adminJa,
  groupJa,
  isStoreRole,
  ja,
  mayLead,
  ROLE,
  type AgencyGroup,
  type GroupInput,
} from '@tenpo/domain';
import { iso, type Clock } from '../../lib/clock';
import { AppError, forbidden, notFound, validationError } from '../../lib/errors';
import type { Actor } from '../../plugins/auth';
import type { AuditLog } from '../audit/audit.repo';
import type { GroupRow, GroupsQueries, GroupsRepo } from './groups.repo';

export type GroupsService = ReturnType<typeof createGroupsService>;

/** What the audit log keeps of a group: its name, its leader and its stores (ids ascending). */
const snapshot = (g: { name: string; leader_id: number | null }, storeIds: readonly number[]) => ({
  name: g.name,
  leader_id: g.leader_id,
  store_ids: [...storeIds].sort((a, b) => a - b),
});

/** A store that is not the group agency's answers like a missing one (ADR 0048, DESIGN §4). */
const storeNotFound = () =>
  new AppError(404, 'not_found', groupJa.storeNotFound, { store_list: [groupJa.storeNotFound] });

/**
 * Agency groups (ADR 0048): an agency creates and changes its own groups, a manager any
 * agency's. Each change is one transaction: the group row, its members, the leaders'
 * `is_leader` and the audit record commit together or not at all.
 */
export function createGroupsService(deps: { repo: GroupsRepo; audit: AuditLog; clock: Clock }) {
  const { repo, audit, clock } = deps;

  /** The agency a change acts for: the agency itself, or the one a manager names. */
  const agencyFor = async (
    actor: Actor,
    named: number | null,
    mode: 'create' | 'update',
  ): Promise<number | null> => {
    const u = actor.user;
    if (u.role === ROLE.agency) {
      if (named !== null && named !== u.id) throw notFound();
      return u.id;
    }
    if (u.role !== ROLE.manager) throw forbidden();
    if (named === null) {
      // An update reads the agency from the group itself.
      if (mode === 'update') return null;
      throw validationError({ agency_id: [ja.required(groupJa.labels.agency_id)] });
    }
    if (!(await repo.agency(named)))
      throw new AppError(404, 'not_found', groupJa.agencyNotFound, {
        agency_id: [groupJa.agencyNotFound],
      });
    return named;
  };

  /** Every store is a store of the group's agency; the leader, if any, a shop among them. */
  const checkStores = async (tx: GroupsQueries, agencyId: number, input: GroupInput) => {
    const found = new Map((await tx.stores(input.store_ids)).map((s) => [s.id, s]));
    for (const id of input.store_ids) {
      const s = found.get(id);
      if (!s || !isStoreRole(s.role) || s.agency_id !== agencyId) throw storeNotFound();
    }
    const leader = input.leader_id === null ? null : found.get(input.leader_id);
    if (leader && !mayLead(leader)) throw validationError({ leader_id: [groupJa.leaderNotShop] });
  };

  const viewOf = async (tx: GroupsQueries, id: number): Promise<AgencyGroup> => {
    const g = (await tx.view([id]))[0];
    if (!g) throw notFound();
    return g;
  };

  return {
    async create(actor: Actor, input: GroupInput): Promise<AgencyGroup> {
      const agencyId = (await agencyFor(actor, input.agency_id, 'create')) as number;
      return repo.transaction(async (tx, trx) => {
        await checkStores(tx, agencyId, input);
        if (input.leader_id !== null) await tx.lockUsers([input.leader_id]);
        const at = iso(clock.now());
        const id = await tx.insertGroup(
          { agency_id: agencyId, name: input.name, leader_id: input.leader_id },
          at,
        );
        await tx.setMembers(id, input.store_ids);
        await tx.recomputeLeaders(input.leader_id === null ? [] : [input.leader_id]);
        await audit.record(
          {
            actor: actor.user,
            entity: 'group',
            entityId: id,
            action: 'create',
            agencyId,
            storeId: null,
            summary: groupJa.auditCreated(input.name),
            after: snapshot(input, input.store_ids),
          },
          trx,
        );
        return viewOf(tx, id);
      });
    },

    async update(actor: Actor, id: number, input: GroupInput): Promise<AgencyGroup> {
      const agencyId = await agencyFor(actor, input.agency_id, 'update');
      return repo.transaction(async (tx, trx) => {
        const g: GroupRow | undefined = await tx.group(id, true);
        // Unknown, and another agency's, look the same.
        if (!g || (agencyId !== null && g.agency_id !== agencyId)) throw notFound();
        await checkStores(tx, g.agency_id, input);
        const leaders = [g.leader_id, input.leader_id].filter((x): x is number => x !== null);
        await tx.lockUsers(leaders);
        const before = snapshot(g, await tx.memberIds(id));
        await tx.updateGroup(
          id,
          { name: input.name, leader_id: input.leader_id },
          iso(clock.now()),
        );
        await tx.setMembers(id, input.store_ids);
        await tx.recomputeLeaders(leaders);
        await audit.recordUpdate(
          {
            actor: actor.user,
            entity: 'group',
            entityId: id,
            agencyId: g.agency_id,
            storeId: null,
            summary: groupJa.auditUpdated(input.name),
          },
          before,
          snapshot(input, input.store_ids),
          trx,
        );
        return viewOf(tx, id);
      });
    },

    /** A manager's delete: the group and its members go, its leader's flag is recomputed. */
    async remove(actor: Actor, id: number): Promise<void> {
      if (actor.user.role !== ROLE.manager) throw forbidden();
      await repo.transaction(async (tx, trx) => {
        const g = await tx.group(id, true);
        if (!g) throw notFound();
        const leaders = g.leader_id === null ? [] : [g.leader_id];
        await tx.lockUsers(leaders);
        const before = snapshot(g, await tx.memberIds(id));
        await tx.deleteGroup(id);
        await tx.recomputeLeaders(leaders);
        await audit.record(
          {
            actor: actor.user,
            entity: 'group',
            entityId: id,
            action: 'delete',
            agencyId: g.agency_id,
            storeId: null,
            summary: groupJa.auditDeleted(g.name),
            before,
          },
          trx,
        );
      });
    },

    get: async (id: number): Promise<AgencyGroup> => viewOf(repo, id),

    /**
     * The manager's list with the admin `meta` paging. A page past the last is refused with
     * the range, as the other admin lists do (ADR 0049); an empty list has its page 1.
     */
    async list(f: { search?: string; agencyId?: number }, page: number, perPage: number) {
      const { data, total } = await repo.page(f, page, perPage);
      const last = Math.max(1, Math.ceil(total / perPage));
      if (page > last) throw validationError({ page: [adminJa.pageBeyondEnd(last)] });
      return {
        data,
        meta: { current_page: page, last_page: last, per_page: perPage, total },
      };
    },
  };
}
