import { ROLE } from '@tenpo/domain';
import type { UserRow } from '../../db/types';

/**
 * Where a change to an account is filed (ADR 0047): a store's account under its store (so the
 * store and its agency read it), an agency's under the agency, a manager's under neither.
 */
export const accountTarget = (u: Pick<UserRow, 'id' | 'role' | 'agency_id'>) => ({
  entity: 'account' as const,
  entityId: u.id,
  storeId: u.role === ROLE.agency || u.role === ROLE.manager ? null : u.id,
  agencyId: u.role === ROLE.agency ? u.id : u.role === ROLE.manager ? null : u.agency_id,
});

/** Picks `keys` of a row, for the before/after of an update. */
export const pick = <T extends object, K extends keyof T>(
  row: T,
  keys: readonly K[],
): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k as string] = row[k];
  return out;
};

/** One level of nesting as dotted keys (`address.postalCode`), so a diff names the field. */
export const flatten = (
  v: Record<string, unknown>,
  nested: readonly string[],
): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (nested.includes(k) && x && typeof x === 'object' && !Array.isArray(x))
      for (const [k2, y] of Object.entries(x)) out[`${k}.${k2}`] = y;
    else out[k] = x;
  }
  return out;
};
