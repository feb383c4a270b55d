import { useState } from 'react';
import { Anchor, Loader, Radio, Stack, Table, Text } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { LOCATIONS_PER_PAGE, type Location } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import type { Ja } from '@/i18n/ja';
import { useBrandTitle } from '@/lib/branding';
import { useNavigate } from 'react-router';
import { ChoiceActions, ChoiceRow, EmptyRow, TableFooter } from '@/components/ui/table-footer';
import { TimedErrorAlert } from '@/components/ui/timed-error-alert';
import { withLoading } from '@/lib/loading';
import { browser } from '@/lib/navigation';
import { chooseLocationCall, locationsCall, publisherKeys } from '../api/publishers-api';

const addressOf = (l: Location): string =>
  [
    l.storefrontAddress.administrativeArea,
    l.storefrontAddress.locality,
    ...l.storefrontAddress.addressLines,
  ]
    .filter(Boolean)
    .join(' ');

/** The open statuses with a label: the keys of the catalog's `screens.connectLocation.open`. */
type OpenStatus = keyof Ja['screens']['connectLocation']['open'];
const OPEN_STATUSES: readonly string[] = [
  'OPEN',
  'CLOSED_TEMPORARILY',
  'CLOSED_PERMANENTLY',
] satisfies OpenStatus[];
const isOpenStatus = (s: string | null): s is OpenStatus => s !== null && OPEN_STATUSES.includes(s);

/**
 * /connect-location (spec 1 §2): the business locations of the connected Google account, 5 a
 * page, one to choose by radio; name, open status, phone, address, website. Cancel goes to
 * /connect-account; Confirm, disabled until one is chosen, makes it the store's listing, goes
 * to /dashboard and reloads.
 */
export function LocationPicker({ storeId }: { storeId: number }) {
  const { t } = useTranslation();
  const product = useBrandTitle();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [chosen, setChosen] = useState<string | null>(null);

  const list = useQuery({
    queryKey: publisherKeys.locations(storeId, page, LOCATIONS_PER_PAGE),
    queryFn: () => locationsCall(storeId, page, LOCATIONS_PER_PAGE),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const confirm = useMutation({
    mutationFn: (id: string) => withLoading(() => chooseLocationCall(storeId, id)),
    onSuccess: () => browser.assign('/dashboard'),
  });

  const d = list.data;
  const failure = list.error ?? confirm.error;
  const c = 'screens.connectLocation.columns';
  const dash = t('common.none');
  const openText = (l: Location) => {
    const s = l.openInfo.status;
    return isOpenStatus(s) ? t(`screens.connectLocation.open.${s}`) : dash;
  };

  return (
    <Stack>
      <Text c="dimmed">{t('screens.connectLocation.lead', { product })}</Text>
      <TimedErrorAlert error={failure} />
      {list.isPending ? (
        <Loader aria-label={t('app.loading')} />
      ) : (
        <Radio.Group value={chosen} onChange={setChosen}>
          <Table.ScrollContainer minWidth={860}>
            <Table withTableBorder striped verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={48} />
                  <Table.Th>{t(`${c}.name`)}</Table.Th>
                  <Table.Th>{t(`${c}.openStatus`)}</Table.Th>
                  <Table.Th>{t(`${c}.phone`)}</Table.Th>
                  <Table.Th>{t(`${c}.address`)}</Table.Th>
                  <Table.Th>{t(`${c}.website`)}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {d && d.data.length === 0 && (
                  <EmptyRow columns={6} text={t('screens.connectLocation.empty')} />
                )}
                {d?.data.map((l) => (
                  <ChoiceRow
                    key={l.id}
                    value={l.id}
                    label={l.title}
                    chosen={chosen === l.id}
                    onChoose={setChosen}
                  >
                    <Table.Td fw={500}>{l.title}</Table.Td>
                    <Table.Td>{openText(l)}</Table.Td>
                    <Table.Td>{l.phoneNumbers.primaryPhone ?? dash}</Table.Td>
                    <Table.Td>{addressOf(l) || dash}</Table.Td>
                    <Table.Td>
                      {l.websiteUri ? (
                        <Anchor
                          href={l.websiteUri}
                          target="_blank"
                          rel="noreferrer"
                          onClick={(e) => e.stopPropagation()}
                        >
                          {l.websiteUri}
                        </Anchor>
                      ) : (
                        dash
                      )}
                    </Table.Td>
                  </ChoiceRow>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Radio.Group>
      )}
      {d && <TableFooter page={d} onPage={setPage} />}
      <ChoiceActions
        chosen={chosen !== null}
        busy={confirm.isPending}
        onCancel={() => void navigate('/connect-account')}
        onConfirm={() => chosen !== null && confirm.mutate(chosen)}
      />
    </Stack>
  );
}
