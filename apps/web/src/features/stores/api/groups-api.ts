import type { AgencyGroup, GroupPayload } from '@tenpo/domain';
import { api } from '@/lib/api-client';

/**
 * POST /agency/groups (new) or PUT /agency/groups/{id} (edit) with the spec's payload
 * (spec 3 §3: name, leader_id, store_list as comma-joined ids; ADR 0048). An agency leaves
 * agency_id out: the server takes its own. A manager (on /overview/agencies/{id}) names the
 * agency and uses its own calls, POST /admin/groups and PUT /admin/groups/{id}.
 */
export const saveGroupCall = async (
  id: number | null,
  form: { name: string; leaderId: number | null; storeIds: readonly number[] },
  agencyId?: number,
): Promise<{ message?: string; group: AgencyGroup }> => {
  const body: GroupPayload = {
    name: form.name,
    leader_id: form.leaderId,
    store_list: form.storeIds.join(','),
    ...(agencyId ? { agency_id: agencyId } : {}),
  };
  const base = agencyId ? '/admin/groups' : '/agency/groups';
  const r = await api<AgencyGroup>(id === null ? base : `${base}/${id}`, {
    method: id === null ? 'POST' : 'PUT',
    body,
  });
  return { message: r.message, group: r.data };
};
