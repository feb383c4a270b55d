import { ROLE, type User } from '@tenpo/domain';
import type { UserRow } from '../../db/types';

/** A free-trial user is in trial while its trial end lies ahead (judged on UTC instants). */
export const inTrial = (row: Pick<UserRow, 'role' | 'trial_ends_at'>, now: Date): boolean =>
  row.role === ROLE.freeTrial &&
  row.trial_ends_at !== null &&
  row.trial_ends_at > now.toISOString();

/** The logo shown for a user's agency: its agency's logo, or its own if it is an agency. */
export const agencyLogoOf = (row: UserRow, agencyLogo: string | null): string | null =>
  row.role === ROLE.agency ? row.logo_url : agencyLogo;

/** The User shape of the spec (spec 1 §3, spec 3 §3). */
export const presentUser = (row: UserRow, now: Date, agencyLogo: string | null): User => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  is_leader: row.is_leader === 1,
  agreed_terms: row.agreed_terms === 1 ? 1 : 0,
  created_at: row.created_at,
  phone: row.phone,
  company_name: row.company_name,
  store_name: row.store_name,
  logo_url: row.logo_url,
  agent_code: row.agent_code,
  in_trial: inTrial(row, now),
  trial_ends_at: row.trial_ends_at,
  payment_fail: row.payment_fail === 1,
  agency_logo: agencyLogoOf(row, agencyLogo),
  status: row.status,
});
