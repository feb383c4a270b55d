import {
  ActionIcon,
  Button,
  Group as Row,
  Input,
  Pagination,
  Radio,
  Select,
  Table,
  Text,
} from '@mantine/core';
import { GROUP_STORES_PER_PAGE, groupJa, mayLead, type StoreRow } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';

/** A chosen store; `role` is known for stores picked here (a group's own stores carry none). */
export type Chosen = { id: number; name: string; role?: number };

export const labelOf = (s: { id: number; name: string }) => `${s.id} ${s.name}`;

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

/**
 * The group's chosen stores, a page at a time, each with the leader radio and a remove button;
 * the pages below when there are several.
 */
export function ChosenStores({
  stores,
  page,
  onPage,
  leaderId,
  error,
  onLeader,
  onRemove,
}: {
  stores: Chosen[];
  /** The page asked for (the last one is shown when fewer stores remain). */
  page: number;
  onPage: (page: number) => void;
  leaderId: number | null;
  error: string | undefined;
  onLeader: (id: number | null) => void;
  onRemove: (id: number) => void;
}) {
  const { t } = useTranslation();
  const lastPage = Math.max(1, Math.ceil(stores.length / GROUP_STORES_PER_PAGE));
  const shownPage = Math.min(page, lastPage);
  const shown = stores.slice(
    (shownPage - 1) * GROUP_STORES_PER_PAGE,
    shownPage * GROUP_STORES_PER_PAGE,
  );
  return (
    <>
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
              {stores.length === 0 && (
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
      {lastPage > 1 && (
        <Pagination
          size="sm"
          total={lastPage}
          value={shownPage}
          onChange={onPage}
          aria-label={t('groups.chosenStores')}
        />
      )}
    </>
  );
}

/** The store picker: the server searches as the user types; add waits for a choice. */
export function StorePicker({
  search,
  onSearch,
  pickable,
  chosenIds,
  picked,
  onPick,
  onAdd,
  error,
}: {
  search: string;
  onSearch: (search: string) => void;
  /** The stores offered (the chosen one first while other searches answer). */
  pickable: StoreRow[];
  /** The stores already in the group: offered, but disabled. */
  chosenIds: Set<number>;
  picked: StoreRow | null;
  onPick: (row: StoreRow | null) => void;
  onAdd: () => void;
  error: string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <Input.Wrapper label={t('groups.storePicker')} error={error}>
      <Row align="flex-start" wrap="nowrap">
        <Select
          aria-label={t('groups.storePicker')}
          placeholder={t('groups.storePickerPlaceholder')}
          style={{ flex: 1 }}
          searchable
          clearable
          searchValue={search}
          onSearchChange={onSearch}
          // The server searches; every option it answers is shown.
          filter={({ options: o }) => o}
          nothingFoundMessage={t('groups.noStoreFound')}
          data={pickable.map((s) => ({
            value: String(s.id),
            label: labelOf(s),
            disabled: chosenIds.has(s.id),
          }))}
          value={picked ? String(picked.id) : null}
          onChange={(v) => onPick(pickable.find((s) => String(s.id) === v) ?? null)}
        />
        <Button variant="light" onClick={onAdd} disabled={!picked || chosenIds.has(picked.id)}>
          {t('groups.add')}
        </Button>
      </Row>
    </Input.Wrapper>
  );
}
