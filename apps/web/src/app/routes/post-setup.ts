import { useQueries, useQuery } from '@tanstack/react-query';
import { CONNECTED_PUBLISHER_STATUSES, PUBLISHER_KEYS, type PublisherKey } from '@tenpo/domain';
import { useSelection } from '@/lib/selection';
import { useSession } from '@/lib/session';
import { publisherKeys, publishersCall } from '@/features/publishers/api/publishers-api';
import { mainPhoneCall, postKeys } from '@/features/posts/api/posts-api';

/** The stores a post screen acts for: the selected ones (multi-store screen), else the user's own. */
export const usePostStoreIds = (): number[] => {
  const { ids } = useSelection();
  const { user } = useSession();
  if (ids.length > 0) return ids;
  return user ? [user.id] : [];
};

const connected = (status: number) =>
  (CONNECTED_PUBLISHER_STATUSES as readonly number[]).includes(status);

/**
 * The channels the post form offers as tabs (spec 2 §2): those connected (status 1 or 2) for
 * every store the post goes to, Google first; Facebook's connection brings the Instagram tab.
 * A channel missing from one selected store is left out, as that store could not take it.
 */
export const usePostChannels = (ids: readonly number[]) => {
  const results = useQueries({
    queries: ids.map((id) => ({
      queryKey: publisherKeys.list(id),
      queryFn: () => publishersCall(id),
    })),
  });
  const loading = results.some((r) => r.isPending);
  const error = results.find((r) => r.error)?.error ?? null;
  const channels: PublisherKey[] =
    loading || error || ids.length === 0
      ? []
      : PUBLISHER_KEYS.filter((key) =>
          results.every((r) => {
            const rows = r.data ?? [];
            const on = (k: PublisherKey) =>
              rows.some((row) => row.publisher_key === k && connected(row.status));
            return key === 'instagram' ? on('facebook') : on(key);
          }),
        );
  return { loading, error, channels };
};

/** The business's main phone (call now is offered only with one, spec 2 §3). */
export const useMainPhone = (id: number | undefined) =>
  useQuery({
    queryKey: postKeys.mainPhone(id ?? 0),
    queryFn: () => mainPhoneCall(id ?? 0),
    enabled: id !== undefined,
    staleTime: 60_000,
  });
