import { useQueries } from '@tanstack/react-query';
import { ROLE } from '@tenpo/domain';
import { useSession } from '@/lib/session';
import { postApprovalSettingsCall, postApprovalSettingsKey } from '../api/post-approvals-api';

/** The rule changes rarely: one read per agency (or store) per minute is plenty. */
const SETTINGS_STALE_MS = 60_000;

/**
 * Whether the posts of the stores a post goes to wait for approval (ADR 0095): `all`, `some`
 * (stores of different agencies, mixed rules) or `none`. An agency's stores all follow its one
 * rule, so an agency reads it once, for itself; anyone else reads it per store (one store for a
 * store's own account), each kept a minute.
 */
export function usePostApprovalRule(storeIds: readonly number[]): 'all' | 'some' | 'none' {
  const { user } = useSession();
  const ids = user?.role === ROLE.agency ? [user.id] : [...new Set(storeIds)];
  const results = useQueries({
    queries: ids.map((id) => ({
      queryKey: postApprovalSettingsKey(id),
      queryFn: ({ signal }: { signal: AbortSignal }) => postApprovalSettingsCall(id, signal),
      staleTime: SETTINGS_STALE_MS,
    })),
  });
  const held = results.filter((r) => r.data?.posts_need_approval === true).length;
  if (held === 0) return 'none';
  return held === ids.length ? 'all' : 'some';
}
