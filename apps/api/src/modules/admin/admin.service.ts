import { createAdminAgencies } from './admin.agencies';
import { createAdminContext, type AdminDeps } from './admin.shared';
import { createAdminStores } from './admin.stores';

export type { AdminList, AgencyFiles, StoreKind } from './admin.shared';

export type AdminService = ReturnType<typeof createAdminService>;

/** The manager's admin, by resource: agencies (admin.agencies.ts), stores and customers (admin.stores.ts). */
export function createAdminService(deps: AdminDeps) {
  const ctx = createAdminContext(deps);
  return { ...createAdminAgencies(ctx), ...createAdminStores(ctx) };
}
