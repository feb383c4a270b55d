import { ActionIcon, Input, Radio, Table, Text } from '@mantine/core';
import { groupJa, mayLead } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';

/** A chosen store; `role` is known for stores picked here (a group's own stores carry none). */
export type Chosen = { id: number; name: string; role?: number };

/** One chosen store: the leader radio (for a store that may lead), its id and name, remove. */
function ChosenStoreRow({ s, onRemove }: { s: Chosen; onRemove: (id: number) => void }) {
  const { t } = useTranslation();
  return (
    <Table.Tr data-testid={`group-store-${s.id}`}>
      <Table.Td>
        <Radio
          value={String(s.id)}
          aria-label={t('groups.leaderOf', { name: s.name })}
          disabled={s.role !== undefined && !mayLead({ role: s.role })}
        />
      </Table.Td>
      <Table.Td>{s.id}</Table.Td>
      <Table.Td style={{ overflowWrap: 'anywhere' }}>{s.name}</Table.Td>
      <Table.Td>
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={t('groups.remove', { name: s.name })}
          onClick={() => onRemove(s.id)}
        >
          ×
        </ActionIcon>
      </Table.Td>
    </Table.Tr>
  );
}

/** The group's chosen stores, one page of them, each with the leader radio and a remove button. */
export function ChosenStoresTable({
  empty,
  shown,
  leaderId,
  error,
  onLeader,
  onRemove,
}: {
  /** No store chosen at all (not only on this page). */
  empty: boolean;
  /** The stores of the page shown. */
  shown: Chosen[];
  leaderId: number | null;
  error: string | undefined;
  onLeader: (id: number | null) => void;
  onRemove: (id: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <Input.Wrapper label={t('groups.chosenStores')} error={error}>
      <Radio.Group
        value={leaderId === null ? '' : String(leaderId)}
        onChange={(v) => onLeader(v ? Number(v) : null)}
        name="group-leader"
      >
        <Table withTableBorder verticalSpacing="xs" mt={4}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={130}>{groupJa.labels.leader_id}</Table.Th>
              <Table.Th w={70}>{t('screens.overview.columns.id')}</Table.Th>
              <Table.Th>{t('screens.overview.columns.name')}</Table.Th>
              <Table.Th w={60} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {empty && (
              <Table.Tr>
                <Table.Td colSpan={4}>
                  <Text size="sm" c="dimmed" ta="center">
                    {t('groups.noStores')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {shown.map((s) => (
              <ChosenStoreRow key={s.id} s={s} onRemove={onRemove} />
            ))}
          </Table.Tbody>
        </Table>
      </Radio.Group>
    </Input.Wrapper>
  );
}
