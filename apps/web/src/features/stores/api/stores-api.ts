import { MAX_PER_PAGE, ROLE, type Group, type Page, type StoreRow, type User } from '@tenpo/domain';
import { api } from '@/lib/api-client';
import type { CursorPage } from '@/lib/keyset-pager';

export type StoreListQuery = {
  page: number;
  perPage: number;
  search?: string;
  groupId?: number | null;
  /** A manager's view of one agency's stores (/overview/agencies/{id}). */
  agencyId?: number;
  /** The page next to the one shown, by its cursor (ADR 0098); `page` otherwise. */
  after?: string;
  before?: string;
};

/** A page of stores with the cursors of the pages beside it, when the answer has them. */
export type StorePage = Page<StoreRow> & Omit<CursorPage, 'current_page'>;

type AdminList = Omit<CursorPage, 'current_page'> & {
  data: StoreRow[];
  meta: { current_page: number; last_page: number; per_page: number; total: number };
};

const fromAdmin = (l: AdminList): StorePage => {
  const { current_page, per_page, total, last_page } = l.meta;
  const { next_cursor, prev_cursor } = l;
  const from = l.data.length === 0 ? null : (current_page - 1) * per_page + 1;
  return {
    data: l.data,
    current_page,
    last_page,
    per_page,
    total,
    from,
    to: from === null ? null : from + l.data.length - 1,
    next_cursor,
    prev_cursor,
  };
};

/**
 * The stores a user may act for (spec 1 §4 store lists): a manager loads every store, an
 * agency its own, a group leader the stores of its groups ordered by id ascending.
 */
export const storeListCall = async (user: User, q: StoreListQuery): Promise<StorePage> => {
  const query = {
    page: q.page,
    per_page: q.perPage,
    search: q.search,
    after: q.after,
    before: q.before,
  };
  if (user.role === ROLE.manager) {
    const agency = q.agencyId ? { agency_id: q.agencyId } : {};
    const group = q.groupId ? { group_id: q.groupId } : {};
    return fromAdmin(
      (await api<AdminList>('/admin/stores', { query: { ...query, ...agency, ...group } })).data,
    );
  }
  if (user.role === ROLE.agency) {
    const path = q.groupId ? `/agency/groups/${q.groupId}/stores` : '/agency/stores';
    return (await api<StorePage>(path, { query })).data;
  }
  const path = q.groupId ? `/group-leader/groups/${q.groupId}/stores` : '/group-leader/stores';
  return (await api<StorePage>(path, { query: { ...query, order_by: 'id,asc' } })).data;
};

/** Most groups one agency's selector lists at once (the API's largest page). */
const AGENCY_GROUPS_PAGE = MAX_PER_PAGE;

/**
 * Groups for the overview's group selector: an agency's own, a group leader's, and for a
 * manager on /overview/agencies/{id} that agency's (GET /admin/groups?agency_id=).
 */
export const groupListCall = async (user: User, agencyId?: number): Promise<Group[]> => {
  if (user.role === ROLE.manager) {
    if (!agencyId) return [];
    const query = { agency_id: agencyId, per_page: AGENCY_GROUPS_PAGE };
    return (await api<{ data: Group[] }>('/admin/groups', { query })).data.data;
  }
  if (user.role === ROLE.agency) return (await api<Group[]>('/agency/groups')).data;
  if (user.is_leader) return (await api<Group[]>('/group-leader/groups')).data;
  return [];
};

export const storeKeys = {
  list: (userId: number, q: StoreListQuery) => ['stores', userId, q] as const,
  groups: (userId: number, agencyId?: number) => ['groups', userId, agencyId ?? null] as const,
};
