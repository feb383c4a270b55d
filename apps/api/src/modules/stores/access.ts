import { ROLE } from '@tenpo/domain';
import type { UserRow } from '../../db/types';
import { notFound } from '../../lib/errors';
import type { Actor } from '../../plugins/auth';
import type { StoreName, UsersRepo } from '../users/users.repo';

export type AccessMode = 'read' | 'write';

export type StoreAccess = {
  /**
   * May this session act for this store? The one check every route that names a store
   * (a `user_id`) goes through. A store the caller may not act for answers 404, exactly
   * like a store that does not exist (DESIGN §4).
   */
  storeFor(actor: Actor, storeId: number, mode: AccessMode): Promise<UserRow>;
  /** The same check for a list of stores; any one refused refuses the whole call. */
  storesFor(actor: Actor, storeIds: readonly number[], mode: AccessMode): Promise<UserRow[]>;
  /** The same as storesFor, reading only what the rule and the stores' names need. */
  storeNamesFor(actor: Actor, storeIds: readonly number[], mode: AccessMode): Promise<StoreName[]>;
};

/** The rule itself, pure: given the actor and the target row, may it act? */
export const mayAct = (
  actor: UserRow,
  target: Pick<UserRow, 'id' | 'role' | 'agency_id'>,
  mode: AccessMode,
  leads: boolean,
): boolean => {
  if (target.id === actor.id) return true;
  switch (actor.role) {
    case ROLE.manager:
      return target.role !== ROLE.manager;
    case ROLE.agency:
      return target.agency_id === actor.id;
    case ROLE.shop:
      // A group leader reads its group's stores; it does not change them.
      return actor.is_leader === 1 && mode === 'read' && leads;
    default:
      return false;
  }
};

export function createStoreAccess(users: UsersRepo): StoreAccess {
  const storeFor = async (actor: Actor, storeId: number, mode: AccessMode): Promise<UserRow> => {
    const target = storeId === actor.user.id ? actor.user : await users.findById(storeId);
    if (!target) throw notFound();
    const leads =
      actor.user.is_leader === 1 && target.id !== actor.user.id
        ? await users.ledBy(actor.user.id, target.id)
        : false;
    if (!mayAct(actor.user, target, mode, leads)) throw notFound();
    return target;
  };
  // One query for the stores (and one for a leader's groups) however long the list: a
  // multi-store report names up to a thousand stores (ADR 0036). Same rule as storeFor.
  const listFor = async <T extends StoreName>(
    actor: Actor,
    storeIds: readonly number[],
    mode: AccessMode,
    find: (ids: readonly number[]) => Promise<T[]>,
  ): Promise<(T | UserRow)[]> => {
    const unique = [...new Set(storeIds)];
    if (unique.length === 1) return [await storeFor(actor, unique[0] as number, mode)];
    const others = unique.filter((id) => id !== actor.user.id);
    const found = new Map((await find(others)).map((u) => [u.id, u]));
    const led =
      actor.user.is_leader === 1 ? await users.ledAmong(actor.user.id, others) : new Set();
    return unique.map((id) => {
      const target = id === actor.user.id ? actor.user : found.get(id);
      if (!target || !mayAct(actor.user, target, mode, led.has(id))) throw notFound();
      return target;
    });
  };
  return {
    storeFor,
    storesFor: (actor, storeIds, mode) => listFor(actor, storeIds, mode, users.findByIds),
    storeNamesFor: (actor, storeIds, mode) => listFor(actor, storeIds, mode, users.namesByIds),
  };
}
