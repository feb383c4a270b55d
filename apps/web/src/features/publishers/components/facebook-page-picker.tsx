import { useMemo, useState } from 'react';
import { Badge, Loader, Radio, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { PAGE_SIZE_OPTIONS, pageOf } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { useBrandTitle } from '@/lib/branding';
import { useNavigate } from 'react-router';
import { ChoiceActions, ChoiceRow, EmptyRow, TableFooter } from '@/components/ui/table-footer';
import { ErrorAlert } from '@/components/ui/error-alert';
import { useTimedError } from '@/components/ui/timed-error-alert';
import { errorLines } from '@/lib/api-client';
import { withLoading } from '@/lib/loading';
import { browser } from '@/lib/navigation';
import { connectPageCall, facebookPagesCall, publisherKeys } from '../api/publishers-api';

const FIRST_PAGE_SIZE = PAGE_SIZE_OPTIONS[0];

/**
 * /facebook/connect-page (spec 1 §2): the pages the connected Facebook user manages, one to
 * choose by radio; index, page name and whether an Instagram account is linked; 5 a page
 * (5, 10, 25, 50) with 'Showing x to y of z entries'. Cancel goes to /connect-account; Confirm,
 * disabled until a page is chosen, connects it, goes to /connect-account and reloads.
 */
export function FacebookPagePicker({ storeId }: { storeId: number }) {
  const { t } = useTranslation();
  const product = useBrandTitle();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState<number>(FIRST_PAGE_SIZE);
  const [chosen, setChosen] = useState<string | null>(null);

  const pages = useQuery({
    queryKey: publisherKeys.pages(storeId),
    queryFn: () => facebookPagesCall(storeId),
    retry: false,
  });
  const confirm = useMutation({
    mutationFn: (pageId: string) => withLoading(() => connectPageCall(storeId, pageId)),
    onSuccess: () => browser.assign('/connect-account'),
  });

  const view = useMemo(() => {
    const all = pages.data ?? [];
    return pageOf(all.slice((page - 1) * perPage, page * perPage), all.length, page, perPage);
  }, [pages.data, page, perPage]);
  const failure = pages.error ?? confirm.error;
  const alerting = useTimedError(failure);
  const c = 'screens.facebookConnectPage.columns';

  return (
    <Stack>
      <Text c="dimmed">{t('screens.facebookConnectPage.lead', { product })}</Text>
      <ErrorAlert lines={alerting ? errorLines(alerting) : null} />
      {pages.isPending ? (
        <Loader aria-label={t('app.loading')} />
      ) : (
        <Radio.Group value={chosen} onChange={setChosen}>
          <Table withTableBorder striped verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={48} />
                <Table.Th w={64}>{t(`${c}.index`)}</Table.Th>
                <Table.Th>{t(`${c}.name`)}</Table.Th>
                <Table.Th>{t(`${c}.instagram`)}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {view.data.length === 0 && (
                // A failed load (trial: 403, Facebook not connected: 409) is not an empty list:
                // once the 2 s alert has gone, the row says why there is nothing (and, while the
                // alert says it, says nothing: the reason is shown once).
                <EmptyRow
                  columns={4}
                  text={pages.isError ? '' : t('screens.facebookConnectPage.empty')}
                  error={pages.isError && alerting !== pages.error ? errorLines(pages.error) : null}
                />
              )}
              {view.data.map((p, i) => (
                <ChoiceRow
                  key={p.id}
                  value={p.id}
                  label={p.name}
                  chosen={chosen === p.id}
                  onChoose={setChosen}
                >
                  <Table.Td>{(view.from ?? 1) + i}</Table.Td>
                  <Table.Td fw={500}>{p.name}</Table.Td>
                  <Table.Td>
                    <Badge color={p.is_connected_instagram ? 'pink' : 'gray'} variant="light">
                      {p.is_connected_instagram
                        ? t('screens.facebookConnectPage.yes')
                        : t('screens.facebookConnectPage.no')}
                    </Badge>
                  </Table.Td>
                </ChoiceRow>
              ))}
            </Table.Tbody>
          </Table>
        </Radio.Group>
      )}
      <TableFooter
        page={view}
        onPage={setPage}
        onPerPage={(n) => {
          setPerPage(n);
          setPage(1);
        }}
      />
      <ChoiceActions
        chosen={chosen !== null}
        busy={confirm.isPending}
        onCancel={() => void navigate('/connect-account')}
        onConfirm={() => chosen !== null && confirm.mutate(chosen)}
      />
    </Stack>
  );
}
