import { Button, Group, Image, Stack, Table, Text } from '@mantine/core';
import {
  LINKED_PUBLISHERS,
  PUBLISHER_STATUS,
  publisherAction,
  type PublisherKey,
  type PublisherRow,
} from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { PublisherLog, PublisherStatusBadge } from './publisher-status';

export type PublisherTableProps = {
  rows: PublisherRow[];
  /** The acting store's role (free-trial rules); null when not known yet. */
  role: number | null;
  /** The row whose call is running: its buttons show a spinner, the others wait. */
  busy: PublisherKey | null;
  onConnect: (row: PublisherRow) => void;
  onDisconnect: (row: PublisherRow) => void;
  onSync: (row: PublisherRow) => void;
  /** Continue a connection whose provider consent is done (choose the location or the page). */
  onContinue: (row: PublisherRow) => void;
};

/** Does `b` go with `a` (Instagram with Facebook), so that they share the actions cell? */
const goesWith = (a: PublisherRow | undefined, b: PublisherRow | undefined): boolean =>
  a !== undefined &&
  b !== undefined &&
  (LINKED_PUBLISHERS[a.publisher_key] ?? []).includes(b.publisher_key);

const isGoogle = (r: PublisherRow) => r.publisher_key === 'google_my_business';

/**
 * The publishers table of /connect-account (spec 1 §2): logo, name, location name, postal
 * code, address, store code, status, actions and status detail; the Facebook and Instagram
 * rows merge their actions cell, since connecting or disconnecting Facebook does both.
 */
export function PublisherTable(p: PublisherTableProps) {
  const { t } = useTranslation();
  const c = 'screens.connectAccount.columns';
  const dash = t('common.none');

  const actions = (row: PublisherRow) => {
    const action = publisherAction(p.role ?? 1, row.publisher_key, row.status);
    const loading = p.busy === row.publisher_key;
    const disabled = p.busy !== null && !loading;
    const name = row.publisher_name;
    if (action === 'disable' || action === 'connect') {
      return (
        <Button
          size="xs"
          disabled={action === 'disable' || disabled}
          loading={loading}
          onClick={() => p.onConnect(row)}
          aria-label={`${name} ${t('screens.connectAccount.connect')}`}
        >
          {t('screens.connectAccount.connect')}
        </Button>
      );
    }
    const waiting = row.status === PUBLISHER_STATUS.requesting;
    return (
      <Group gap="xs" wrap="nowrap">
        {waiting && (isGoogle(row) || row.publisher_key === 'facebook') && (
          <Button
            size="xs"
            variant="light"
            disabled={p.busy !== null}
            onClick={() => p.onContinue(row)}
          >
            {isGoogle(row)
              ? t('screens.connectAccount.chooseLocation')
              : t('screens.connectAccount.choosePage')}
          </Button>
        )}
        {isGoogle(row) && !waiting && (
          <Button
            size="xs"
            variant="light"
            loading={loading}
            disabled={disabled}
            onClick={() => p.onSync(row)}
            aria-label={`${name} ${t('screens.connectAccount.sync')}`}
          >
            {t('screens.connectAccount.sync')}
          </Button>
        )}
        <Button
          size="xs"
          color="red"
          variant="outline"
          disabled={p.busy !== null}
          onClick={() => p.onDisconnect(row)}
          aria-label={`${name} ${t('screens.connectAccount.disconnect')}`}
        >
          {t('screens.connectAccount.disconnect')}
        </Button>
      </Group>
    );
  };

  return (
    // Every column, ステータス詳細 too, fits a laptop's 1280 px beside the side bar (issue 23 item 6).
    <Table.ScrollContainer minWidth={920} className="cards-on-phone">
      <Table
        withTableBorder
        withColumnBorders
        verticalSpacing="sm"
        aria-label={t('screens.connectAccount.title')}
        styles={{ th: { whiteSpace: 'nowrap' } }}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={64}>{t(`${c}.logo`)}</Table.Th>
            <Table.Th>{t(`${c}.name`)}</Table.Th>
            <Table.Th>{t(`${c}.location_name`)}</Table.Th>
            <Table.Th>{t(`${c}.postal_code`)}</Table.Th>
            <Table.Th>{t(`${c}.address`)}</Table.Th>
            <Table.Th>{t(`${c}.store_code`)}</Table.Th>
            <Table.Th>{t(`${c}.status`)}</Table.Th>
            <Table.Th>{t(`${c}.actions`)}</Table.Th>
            <Table.Th>{t(`${c}.detail`)}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {p.rows.map((row, i) => {
            const leads = goesWith(row, p.rows[i + 1]);
            const follows = goesWith(p.rows[i - 1], row);
            return (
              <Table.Tr key={row.publisher_key} data-testid={`publisher-${row.publisher_key}`}>
                <Table.Td>
                  <Image src={row.logo_url} alt={row.publisher_name} w={32} h={32} fit="contain" />
                </Table.Td>
                <Table.Td data-label={t(`${c}.name`)} fw={600}>
                  {row.publisher_name}
                </Table.Td>
                <Table.Td data-label={t(`${c}.location_name`)}>
                  {row.location_name ?? dash}
                </Table.Td>
                <Table.Td data-label={t(`${c}.postal_code`)} style={{ whiteSpace: 'nowrap' }}>
                  {row.postal_code ?? dash}
                </Table.Td>
                <Table.Td data-label={t(`${c}.address`)}>
                  {row.address_lines.length > 0 ? row.address_lines.join(' ') : dash}
                </Table.Td>
                <Table.Td data-label={t(`${c}.store_code`)}>{row.store_code ?? dash}</Table.Td>
                <Table.Td data-label={t(`${c}.status`)} style={{ whiteSpace: 'nowrap' }}>
                  <PublisherStatusBadge row={row} role={p.role} />
                </Table.Td>
                {!follows && (
                  <Table.Td
                    data-label={t(`${c}.actions`)}
                    rowSpan={leads ? 2 : 1}
                    data-testid={`actions-${row.publisher_key}`}
                  >
                    <Stack gap={4} align="flex-start">
                      {actions(row)}
                      {leads && (
                        <Text size="xs" c="dimmed">
                          {t('screens.connectAccount.withFacebook')}
                        </Text>
                      )}
                    </Stack>
                  </Table.Td>
                )}
                <Table.Td data-label={t(`${c}.detail`)} maw={280}>
                  <PublisherLog row={row} />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
