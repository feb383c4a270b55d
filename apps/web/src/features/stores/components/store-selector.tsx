import { useEffect, useState } from 'react';
import {
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  Pagination,
  Radio,
  ScrollArea,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { Modal } from '@/components/ui/modal';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { storeOptionDisabled, type StoreRow, type User } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorLines } from '@/lib/api-client';
import { FIRST_PAGE, positionOf, type PagePosition } from '@/lib/keyset-pager';
import { rememberStores } from '@/lib/selection';
import { storeKeys, storeListCall } from '../api/stores-api';

const SELECTOR_PER_PAGE = 10;

export type SelectorMode = 'single' | 'multi';

/**
 * The top bar's store selector (spec 1 §2): single-store or multi-store by screen; disabled
 * stores follow `storeOptionDisabled`; "select" hands the chosen rows to the caller, who stores
 * them and applies the navigation rules.
 */
export function StoreSelector({
  user,
  mode,
  selectedIds,
  knownStores,
  onSelect,
}: {
  user: User;
  mode: SelectorMode;
  selectedIds: number[];
  knownStores: StoreRow[];
  /** The chosen ids in order, and the rows known for them. */
  onSelect: (ids: number[], rows: StoreRow[]) => void;
}) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  // The next and previous pages are asked for by cursor (ADR 0098), others by number.
  const [pos, setPos] = useState<PagePosition>(FIRST_PAGE);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [chosen, setChosen] = useState<number[]>([]);
  const [seen, setSeen] = useState<Map<number, StoreRow>>(new Map());

  // Names of the stores already selected, for the button label (and the side bar's rules).
  const known = useQuery({
    queryKey: storeKeys.list(user.id, { page: 1, perPage: 100 }),
    queryFn: () => storeListCall(user, { page: 1, perPage: 100 }),
  });
  useEffect(() => {
    if (known.data) rememberStores(known.data.data);
  }, [known.data]);

  const list = useQuery({
    queryKey: storeKeys.list(user.id, { ...pos, perPage: SELECTOR_PER_PAGE, search: debounced }),
    queryFn: () => storeListCall(user, { ...pos, perPage: SELECTOR_PER_PAGE, search: debounced }),
    enabled: opened,
    placeholderData: keepPreviousData,
  });

  useEffect(() => {
    const rows = [...knownStores, ...(known.data?.data ?? []), ...(list.data?.data ?? [])];
    setSeen((m) => {
      if (rows.every((r) => m.get(r.id) === r)) return m;
      const next = new Map(m);
      for (const r of rows) next.set(r.id, r);
      return next;
    });
  }, [knownStores, known.data, list.data]);

  const open = () => {
    // The single selector starts from the selection only when it is one store it allows: a
    // multi-store selection (or a store disabled here) is not a single choice to carry over.
    const only = selectedIds.length === 1 ? seen.get(selectedIds[0] ?? 0) : undefined;
    const single =
      selectedIds.length === 1 && !(only && storeOptionDisabled(only, 'single')) ? selectedIds : [];
    setChosen(mode === 'single' ? single : selectedIds);
    setPos(FIRST_PAGE);
    setSearch('');
    setOpened(true);
  };

  const toggle = (row: StoreRow, on: boolean) => {
    if (mode === 'single') setChosen(on ? [row.id] : []);
    else
      setChosen((c) =>
        on ? [...c.filter((id) => id !== row.id), row.id] : c.filter((id) => id !== row.id),
      );
  };

  const current = knownStores.find((s) => s.id === selectedIds[0]);
  const label =
    selectedIds.length === 0
      ? t('layout.selector.button')
      : selectedIds.length === 1 && current
        ? current.name
        : t('layout.selector.selected', { count: selectedIds.length });

  return (
    <>
      <Button variant="light" onClick={open} aria-label={t('layout.selector.title')} maw={320}>
        <Text span truncate size="sm">
          {label}
        </Text>
      </Button>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={t('layout.selector.title')}
        size="lg"
      >
        <Stack>
          <Text size="sm" c="dimmed">
            {mode === 'multi' ? t('layout.selector.multiHint') : t('layout.selector.singleHint')}
          </Text>
          <TextInput
            placeholder={t('screens.overview.searchPlaceholder')}
            aria-label={t('actions.search')}
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              setPos(FIRST_PAGE);
            }}
          />
          {list.isError && <ErrorAlert lines={errorLines(list.error)} />}
          {list.isPending ? (
            <Loader />
          ) : list.data && list.data.data.length === 0 ? (
            <Text c="dimmed">{t('layout.selector.empty')}</Text>
          ) : (
            <ScrollArea.Autosize mah={420}>
              <Stack gap={6} role="list">
                {list.data?.data.map((row) => {
                  const disabled = storeOptionDisabled(row, mode);
                  const on = chosen.includes(row.id);
                  const labelNode = (
                    <Group gap="xs" wrap="nowrap">
                      <Text size="sm">{row.name}</Text>
                      {disabled && (
                        <Badge size="xs" color="gray" variant="light">
                          {t('layout.selector.disabled')}
                        </Badge>
                      )}
                    </Group>
                  );
                  return (
                    <div role="listitem" key={row.id}>
                      {mode === 'multi' ? (
                        <Checkbox
                          label={labelNode}
                          aria-label={row.name}
                          checked={on}
                          disabled={disabled}
                          onChange={(e) => toggle(row, e.currentTarget.checked)}
                        />
                      ) : (
                        <Radio
                          label={labelNode}
                          aria-label={row.name}
                          name="store"
                          checked={on}
                          disabled={disabled}
                          onChange={(e) => toggle(row, e.currentTarget.checked)}
                        />
                      )}
                    </div>
                  );
                })}
              </Stack>
            </ScrollArea.Autosize>
          )}
          {list.data && list.data.last_page > 1 && (
            <Pagination
              total={list.data.last_page}
              value={pos.page}
              onChange={(p) => setPos(positionOf(p, list.data))}
              siblings={2}
              size="sm"
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpened(false)}>
              {t('actions.cancel')}
            </Button>
            <Button
              disabled={chosen.length === 0}
              onClick={() => {
                setOpened(false);
                onSelect(
                  chosen,
                  chosen.map((id) => seen.get(id)).filter((r): r is StoreRow => r !== undefined),
                );
              }}
            >
              {t('actions.select')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
