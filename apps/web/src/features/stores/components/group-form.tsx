import { useState } from 'react';
import { Button, Group as Row, Stack, Text, TextInput } from '@mantine/core';
import { Modal } from '@/components/ui/modal';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import {
  GROUP_STORES_PER_PAGE,
  groupJa,
  groupNameField,
  withoutStore,
  type Group,
  type StoreRow,
  type User,
} from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/ui/error-alert';
import { ApiError, errorLines } from '@/lib/api-client';
import { saveGroupCall } from '../api/groups-api';
import { storeKeys, storeListCall } from '../api/stores-api';
import { ChosenStores, labelOf, StorePicker, type Chosen } from './group-form-stores';

type Field = 'name' | 'store_list' | 'leader_id';

/** Stores the picker offers at once; typing searches the agency's stores on the server. */
const PICKER_SIZE = 50;

/**
 * The group create/edit form (spec 3 §2): group name (required), a store picker whose add
 * button waits for a choice, the chosen stores 5 a page with a remove button and the leader
 * radio (removing the leader's store clears the leader), and confirm (create) or update (edit).
 */
export function GroupFormModal({
  user,
  agencyId,
  group,
  opened,
  onClose,
  onSaved,
}: {
  user: User;
  /** A manager's group of this agency: its stores only in the picker, the admin calls. */
  agencyId?: number;
  /** null: a new group. */
  group: Group | null;
  opened: boolean;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const { t } = useTranslation();
  const edit = group !== null;
  const [name, setName] = useState(group?.name ?? '');
  const [stores, setStores] = useState<Chosen[]>(group?.stores ?? []);
  const [leaderId, setLeaderId] = useState<number | null>(group?.leader ?? null);
  const [pickedRow, setPickedRow] = useState<StoreRow | null>(null);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [page, setPage] = useState(1);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [lines, setLines] = useState<string[] | null>(null);
  const [saving, setSaving] = useState(false);

  // Choosing an option writes its label into the search box: that is no search.
  const searching = pickedRow && debounced === labelOf(pickedRow) ? '' : debounced;
  const q = { page: 1, perPage: PICKER_SIZE, search: searching, agencyId };
  const options = useQuery({
    queryKey: storeKeys.list(user.id, q),
    queryFn: () => storeListCall(user, q),
    enabled: opened,
  });
  const chosenIds = new Set(stores.map((s) => s.id));
  const answered = options.data?.data ?? [];
  // The chosen store stays an option while other searches answer, so its label stays shown.
  const pickable =
    pickedRow && !answered.some((s) => s.id === pickedRow.id) ? [pickedRow, ...answered] : answered;

  const add = () => {
    if (!pickedRow || chosenIds.has(pickedRow.id)) return;
    const next = [...stores, { id: pickedRow.id, name: pickedRow.name, role: pickedRow.role }];
    setStores(next);
    setPage(Math.ceil(next.length / GROUP_STORES_PER_PAGE));
    setPickedRow(null);
    setSearch('');
    setErrors((e) => ({ ...e, store_list: undefined }));
  };
  const remove = (id: number) => {
    const r = withoutStore(stores, leaderId, id);
    setStores(r.stores);
    setLeaderId(r.leaderId);
  };

  const submit = async () => {
    setLines(null);
    const checked = groupNameField.safeParse(name);
    const found: Partial<Record<Field, string>> = {};
    if (!checked.success) found.name = checked.error.issues[0]?.message;
    if (stores.length === 0) found.store_list = groupJa.storeListRequired;
    setErrors(found);
    if (!checked.success || found.store_list) return;
    setSaving(true);
    try {
      const r = await saveGroupCall(
        group?.id ?? null,
        {
          name: checked.data,
          leaderId,
          storeIds: stores.map((s) => s.id),
        },
        agencyId,
      );
      onSaved(r.message ?? (edit ? groupJa.updated : groupJa.created));
    } catch (e) {
      const server: Partial<Record<Field, string>> = {};
      if (e instanceof ApiError)
        for (const [field, messages] of Object.entries(e.fieldErrors()))
          if (field === 'name' || field === 'store_list' || field === 'leader_id')
            server[field] = messages[0];
      setErrors(server);
      setLines(errorLines(e));
    } finally {
      setSaving(false);
    }
  };

  const title = edit ? t('groups.editTitle') : t('groups.createTitle');
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg">
      <form
        aria-label={title}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack>
          <ErrorAlert lines={lines} />
          <TextInput
            label={groupJa.labels.name}
            withAsterisk
            value={name}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setErrors((x) => ({ ...x, name: undefined }));
            }}
            error={errors.name}
          />
          <StorePicker
            search={search}
            onSearch={setSearch}
            pickable={pickable}
            chosenIds={chosenIds}
            picked={pickedRow}
            onPick={setPickedRow}
            onAdd={add}
            error={errors.store_list}
          />

          <ChosenStores
            stores={stores}
            page={page}
            onPage={setPage}
            leaderId={leaderId}
            error={errors.leader_id}
            onLeader={(id) => {
              setLeaderId(id);
              setErrors((x) => ({ ...x, leader_id: undefined }));
            }}
            onRemove={remove}
          />
          <Text size="xs" c="dimmed">
            {t('groups.leaderHint')}
          </Text>
          <Row justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('groups.cancel')}
            </Button>
            <Button type="submit" loading={saving}>
              {edit ? t('groups.update') : t('groups.confirm')}
            </Button>
          </Row>
        </Stack>
      </form>
    </Modal>
  );
}
