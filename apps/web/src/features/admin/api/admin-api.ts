import type { AdminAgency, AdminStore, AdminStoreRow, Page } from '@tenpo/domain';
import { api } from '@/lib/api-client';
import { positionQuery, type CursorPage, type PagePosition } from '@/lib/keyset-pager';

type Cursors = Omit<CursorPage, 'current_page'>;

type AdminList<T> = Cursors & {
  data: T[];
  meta: { current_page: number; last_page: number; per_page: number; total: number };
};

/** A page of an admin list with the cursors of the pages beside it (ADR 0098). */
export type AdminPage<T> = Page<T> & Cursors;

/** `meta` paging to the table footer's page (from/to worked out here). */
const pageOf = <T>(l: AdminList<T>): AdminPage<T> => {
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

/** A page by number, or next to the one shown by its cursor. */
export type AdminListQuery = PagePosition & { perPage: number; search?: string };

const query = (q: AdminListQuery) => ({
  ...positionQuery(q),
  per_page: q.perPage,
  search: q.search,
});

export const agencyListCall = async (q: AdminListQuery): Promise<AdminPage<AdminAgency>> =>
  pageOf((await api<AdminList<AdminAgency>>('/admin/agencies', { query: query(q) })).data);

export const customerListCall = async (q: AdminListQuery): Promise<AdminPage<AdminStoreRow>> =>
  pageOf((await api<AdminList<AdminStoreRow>>('/admin/customers', { query: query(q) })).data);

export const agencyCall = async (id: number): Promise<AdminAgency> =>
  (await api<AdminAgency>(`/admin/agencies/${id}`)).data;

export const customerCall = async (id: number): Promise<AdminStore> =>
  (await api<AdminStore>(`/admin/customers/${id}`)).data;

/** The agency form's text fields, as typed. */
export type AgencyFields = {
  email: string;
  name: string;
  company_name: string;
  phone: string;
  agent_code: string;
  status: string;
  password: string;
  prefix: string;
  title: string;
};

export const saveAgencyCall = (
  id: number | null,
  fields: AgencyFields,
  files: { logo: File | null; favicon: File | null },
) => {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.set(k, v);
  if (files.logo) fd.set('logo', files.logo);
  if (files.favicon) fd.set('favicon', files.favicon);
  return id === null
    ? api<AdminAgency>('/admin/agencies', { method: 'POST', body: fd })
    : api<AdminAgency>(`/admin/agencies/${id}`, { method: 'PUT', body: fd });
};

/** The customer form's fields, as typed. */
export type CustomerFields = {
  email: string;
  name: string;
  company_name: string;
  store_name: string;
  phone: string;
  agent_code: string;
  status: string;
  role: string;
  password: string;
};

export const saveCustomerCall = (id: number | null, fields: CustomerFields) =>
  id === null
    ? api<AdminStore>('/admin/customers', { method: 'POST', body: fields })
    : api<AdminStore>(`/admin/customers/${id}`, { method: 'PUT', body: fields });

export const deleteAgencyCall = (id: number) =>
  api<{ id: number; detached_stores: number }>(`/admin/agencies/${id}`, { method: 'DELETE' });

export const deleteCustomerCall = (id: number) =>
  api<{ id: number; detached_stores: number }>(`/admin/customers/${id}`, { method: 'DELETE' });

export const adminKeys = {
  all: ['admin'] as const,
  agencies: (q: AdminListQuery) => ['admin', 'agencies', q] as const,
  customers: (q: AdminListQuery) => ['admin', 'customers', q] as const,
  agency: (id: number) => ['admin', 'agency', id] as const,
};
