import { useEffect, useRef, useState } from 'react';
import { Center, Group, Loader, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/ui/error-alert';
import { TableFooter } from '@/components/ui/table-footer';
import { errorLines } from '@/lib/api-client';
import { positionOf, type PagePosition } from '@/lib/keyset-pager';
import { reviewKeys, reviewsCall } from '../api/reviews-api';
import { useReviewFilters } from '../hooks/use-review-filters';
import { ApprovalPanel } from './approval-panel';
import { ReviewKitButton } from './review-kit';
import { ReviewCard } from './review-card';
import { ReviewFiltersBar } from './review-filters';
import { ReplyTemplatesButton } from './reply-templates';

/**
 * /reviews (docs/product/reviews.md): the selected stores' Google reviews, newest first, with
 * the filters kept in the URL, 10 a page (5/10/25/50), and each review's reply actions.
 */
export function ReviewsInbox({ storeIds }: { storeIds: number[] }) {
  const { t } = useTranslation();
  const { filters, update, clear } = useReviewFilters();
  // The page next to the one shown is asked for by its cursor (ADR 0098): kept for the page and
  // the filters and stores it was made under; any other page (a jump, a new filter, the URL)
  // goes by number.
  const listKey = JSON.stringify({ ...filters, page: 0, ids: storeIds });
  const [moved, setMoved] = useState<PagePosition & { key: string }>({ page: 0, key: '' });
  const cursor =
    moved.key === listKey && moved.page === filters.page
      ? { after: moved.after, before: moved.before }
      : {};
  const query = { ...filters, ids: storeIds, ...cursor };
  const list = useQuery({
    queryKey: reviewKeys.list(query),
    queryFn: ({ signal }) => reviewsCall(query, signal),
    placeholderData: keepPreviousData,
    enabled: storeIds.length > 0,
  });

  // Other stores chosen: their list starts on page 1, the filters kept.
  const idsKey = storeIds.join(',');
  const shownIds = useRef(idsKey);
  useEffect(() => {
    if (shownIds.current === idsKey) return;
    shownIds.current = idsKey;
    update({});
  }, [idsKey, update]);

  const rows = list.data?.data ?? [];
  return (
    <Stack>
      {/* The inbox's tools: the request kit (one store) and the reply templates. */}
      <Group justify="flex-end" gap="xs">
        <ReviewKitButton storeIds={storeIds} />
        <ReplyTemplatesButton storeIds={storeIds} />
      </Group>
      <ApprovalPanel storeIds={storeIds} />
      <ReviewFiltersBar filters={filters} onChange={update} onClear={clear} />
      <ErrorAlert lines={list.isError ? errorLines(list.error) : null} />
      {list.isPending ? (
        <Center py="xl">
          <Loader aria-label={t('reviews.loading')} />
        </Center>
      ) : rows.length === 0 ? (
        !list.isError && (
          <Text c="dimmed" py="lg" ta="center">
            {t('reviews.empty')}
          </Text>
        )
      ) : (
        <Stack gap="md">
          {rows.map((r) => (
            <ReviewCard key={r.id} review={r} />
          ))}
        </Stack>
      )}
      {list.data && (
        <TableFooter
          page={list.data}
          onPage={(page) => {
            setMoved({ ...positionOf(page, list.data), key: listKey });
            update({ page });
          }}
          onPerPage={(perPage) => update({ perPage })}
        />
      )}
    </Stack>
  );
}
