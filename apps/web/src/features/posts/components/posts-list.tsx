import { useMemo, useState } from 'react';
import {
  Anchor,
  Button,
  Group,
  Stack,
  Table,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PAGE_SIZE_OPTIONS, publisherByKey, type StoreRow } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyRow, TableFooter } from '@/components/ui/table-footer';
import { ja } from '@/i18n/ja';
import { FIRST_PAGE, positionOf, type PagePosition } from '@/lib/keyset-pager';
import { TOAST_MS } from '@/lib/timing';
import {
  postKeys,
  postsCall,
  retryTargetCall,
  type PostRow,
  type PostTarget,
} from '../api/posts-api';
import { formatPostDate, postDateKey } from '../format';
import { MediaCarousel } from './media-carousel';
import { PostApprovalPanel } from './post-approval-panel';
import { postErrorLines, toastPostError } from './post-errors';
import { ApprovalNote, TargetStateBadge } from './post-state';

/** Spec 2 §9: search debounce. */
export const POST_SEARCH_DEBOUNCE_MS = 500;
const DEFAULT_POSTS_PER_PAGE = PAGE_SIZE_OPTIONS[0];

type SortKey = 'created_at' | 'channel' | 'content' | 'publish_date' | 'delete_date';
type Sort = { key: SortKey; dir: 'asc' | 'desc' } | null;

const channelsText = (p: PostRow) =>
  [...new Set(p.targets.map((t) => publisherByKey(t.publisher_key)?.label ?? t.publisher_key))]
    .sort()
    .join(',');

const sortValue = (p: PostRow, key: SortKey): string | number => {
  switch (key) {
    case 'channel':
      return channelsText(p);
    case 'content':
      return p.content;
    default:
      return postDateKey(p[key]);
  }
};

/** Client-side sort of the page shown (spec 2 §2). */
const sorted = (rows: readonly PostRow[], sort: Sort): PostRow[] => {
  if (!sort) return [...rows];
  const sign = sort.dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = sortValue(a, sort.key);
    const y = sortValue(b, sort.key);
    const c =
      typeof x === 'number' && typeof y === 'number'
        ? x - y
        : String(x).localeCompare(String(y), 'ja');
    return c * sign;
  });
};

function TargetLine({
  post,
  target,
  storeName,
}: {
  post: PostRow;
  target: PostTarget;
  storeName: string | null;
}) {
  const postId = post.id;
  const { t } = useTranslation();
  const qc = useQueryClient();
  const retry = useMutation({
    mutationFn: () => retryTargetCall(postId, target.id),
    onSuccess: () => {
      notifications.show({ color: 'teal', message: ja.posts.list.retried, autoClose: TOAST_MS });
      void qc.invalidateQueries({ queryKey: postKeys.all });
    },
    onError: toastPostError,
  });
  const label = publisherByKey(target.publisher_key)?.label ?? target.publisher_key;
  const at = formatPostDate(target.time);
  return (
    <Stack gap={2} data-testid={`target-${target.id}`}>
      <Group gap={6} wrap="nowrap">
        <Text size="sm" fw={600}>
          {storeName ? `${storeName} / ${label}` : label}
        </Text>
        <TargetStateBadge state={target.state} approval={post.approval} />
        {target.retryable && (
          <Button
            size="compact-xs"
            variant="outline"
            color="red"
            loading={retry.isPending}
            onClick={() => retry.mutate()}
            aria-label={`${storeName ? `${storeName} ` : ''}${label} ${t('posts.list.retry')}`}
          >
            {t('posts.list.retry')}
          </Button>
        )}
      </Group>
      {(at || target.url) && (
        <Group gap={6}>
          {at && (
            <Text size="xs" c="dimmed">
              {at}
            </Text>
          )}
          {target.url && target.state === 'published' && (
            <Anchor size="xs" href={target.url} target="_blank" rel="noreferrer">
              {t('posts.list.open')}
            </Anchor>
          )}
        </Group>
      )}
      {target.errors.map((e) => (
        <Text key={e} size="xs" c="red">
          {e}
        </Text>
      ))}
    </Stack>
  );
}

/**
 * /posts (spec 2 §2): add button, per page 5/10/25/50 (5 by default), search debounced 500 ms
 * back to page 1, client-side sort, media carousel, copy action, the 'showing' line, and every
 * target's state with its error lines and a retry button when it failed (issue 9).
 */
/**
 * `yyyy/MM/dd HH:mm:ss` as the day over the time: `min-content` breaks at its one space only,
 * two short lines instead of one long one (issue 23 item 6).
 */
function DateLines({ value }: { value: string | null }) {
  return (
    <Text size="sm" style={{ width: 'min-content' }}>
      {value}
    </Text>
  );
}

export function PostsList({ storeIds, stores }: { storeIds: number[]; stores: StoreRow[] }) {
  const { t } = useTranslation();
  // The page shown; the next and previous pages are asked for by cursor (ADR 0098).
  const [pos, setPos] = useState<PagePosition>(FIRST_PAGE);
  const [perPage, setPerPage] = useState<number>(DEFAULT_POSTS_PER_PAGE);
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search, POST_SEARCH_DEBOUNCE_MS);
  const [sort, setSort] = useState<Sort>(null);
  const [lastQ, setLastQ] = useState(q);
  if (q !== lastQ) {
    // A new search goes back to page 1 (spec 2 §4), with no cursor.
    setLastQ(q);
    setPos(FIRST_PAGE);
  }
  const query = { ids: storeIds, ...pos, perPage, q };
  const list = useQuery({
    queryKey: postKeys.list(query),
    queryFn: ({ signal }) => postsCall(query, signal),
    placeholderData: keepPreviousData,
    enabled: storeIds.length > 0,
  });
  const rows = useMemo(() => sorted(list.data?.data ?? [], sort), [list.data, sort]);
  const storeName = (id: number) =>
    storeIds.length > 1 ? (stores.find((s) => s.id === id)?.name ?? `#${id}`) : null;

  const c = 'posts.list.columns';
  const th = (key: SortKey) => {
    const on = sort?.key === key ? sort.dir : null;
    return (
      <Table.Th aria-sort={on === 'asc' ? 'ascending' : on === 'desc' ? 'descending' : undefined}>
        <UnstyledButton
          fw={700}
          fz="sm"
          onClick={() =>
            setSort(on === null ? { key, dir: 'asc' } : on === 'asc' ? { key, dir: 'desc' } : null)
          }
          aria-label={t('posts.list.sortBy', { column: t(`${c}.${key}`) })}
        >
          {t(`${c}.${key}`)} {on === 'asc' ? '▲' : on === 'desc' ? '▼' : '⇅'}
        </UnstyledButton>
      </Table.Th>
    );
  };

  const pageInfo = list.data ?? {
    current_page: pos.page,
    last_page: 1,
    per_page: perPage,
    total: 0,
    from: null,
    to: null,
  };

  return (
    <Stack>
      <PostApprovalPanel storeIds={storeIds} />
      <Group justify="space-between">
        <Button component={Link} to="/create-post">
          {t('posts.list.add')}
        </Button>
        <TextInput
          aria-label={t('posts.list.search')}
          placeholder={t('posts.list.searchPlaceholder')}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          w={280}
        />
      </Group>
      {/* Every column fits a laptop's 1280 px beside the side bar (issue 23 item 6). */}
      {/* On a phone each post is a card (small-screens.css, issue 23 item 2). */}
      <Table.ScrollContainer minWidth={900} className="cards-on-phone">
        <Table
          withTableBorder
          withColumnBorders
          verticalSpacing="sm"
          aria-label={t('posts.listTitle')}
          styles={{ th: { whiteSpace: 'nowrap' } }}
        >
          <Table.Thead>
            <Table.Tr>
              {th('created_at')}
              {th('channel')}
              {th('content')}
              <Table.Th>{t(`${c}.media`)}</Table.Th>
              {th('publish_date')}
              {th('delete_date')}
              <Table.Th>{t(`${c}.actions`)}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.length === 0 ? (
              <EmptyRow
                columns={7}
                text={list.isPending ? t('app.loading') : t('posts.list.empty')}
                error={list.isError ? postErrorLines(list.error) : null}
              />
            ) : (
              rows.map((p) => (
                <Table.Tr key={p.id} data-testid={`post-${p.id}`}>
                  <Table.Td data-label={t(`${c}.created_at`)}>
                    <DateLines value={formatPostDate(p.created_at)} />
                  </Table.Td>
                  <Table.Td data-label={t(`${c}.channel`)} miw={220}>
                    <Stack gap="xs">
                      {p.targets.map((tg) => (
                        <TargetLine
                          key={tg.id}
                          post={p}
                          target={tg}
                          storeName={storeName(tg.user_id)}
                        />
                      ))}
                      <ApprovalNote approval={p.approval} />
                    </Stack>
                  </Table.Td>
                  <Table.Td data-label={t(`${c}.content`)} maw={320}>
                    <Text size="sm" lineClamp={4} style={{ whiteSpace: 'pre-line' }}>
                      {p.content}
                    </Text>
                  </Table.Td>
                  <Table.Td data-label={t(`${c}.media`)}>
                    <MediaCarousel urls={p.media_url} />
                  </Table.Td>
                  <Table.Td data-label={t(`${c}.publish_date`)}>
                    <DateLines value={formatPostDate(p.publish_date) ?? t('common.none')} />
                  </Table.Td>
                  <Table.Td data-label={t(`${c}.delete_date`)}>
                    <DateLines value={formatPostDate(p.delete_date) ?? t('common.none')} />
                  </Table.Td>
                  <Table.Td data-label={t(`${c}.actions`)}>
                    <Button
                      component={Link}
                      to={`/post/${p.id}`}
                      size="compact-sm"
                      variant="light"
                      aria-label={t('posts.list.copyOf', { id: p.id })}
                    >
                      {t('posts.list.copy')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <TableFooter
        page={pageInfo}
        onPage={(p) => setPos(positionOf(p, list.data))}
        onPerPage={(n) => {
          setPerPage(n);
          setPos(FIRST_PAGE);
        }}
      />
    </Stack>
  );
}
