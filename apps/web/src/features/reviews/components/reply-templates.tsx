import { useState } from 'react';
import {
  Badge,
  Button,
  Center,
  Group,
  Loader,
  NativeSelect,
  Paper,
  Radio,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  REPLY_TEMPLATE_MAX_BYTES,
  reviewTemplateJa,
  STAR_BANDS,
  type ReplyTemplateScope,
  type ReplyTemplateView,
  type StarBand,
} from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/ui/error-alert';
import { Modal } from '@/components/ui/modal';
import { ApiError, errorLines } from '@/lib/api-client';
import { useSelection } from '@/lib/selection';
import { TOAST_MS } from '@/lib/timing';
import {
  createTemplateCall,
  deleteTemplateCall,
  draftKeys,
  templatesCall,
  updateTemplateCall,
} from '../api/drafts-api';

/** What the form edits: a new template of a band, or one of the list. */
type Editing = { band: StarBand; template: ReplyTemplateView | null };

const bodyErrors = (e: unknown): string[] | null =>
  e instanceof ApiError && e.status === 422 ? (e.fieldErrors().body ?? null) : null;

function TemplateForm({
  storeId,
  editing,
  canEditAgency,
  onDone,
}: {
  storeId: number;
  editing: Editing;
  canEditAgency: boolean;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [body, setBody] = useState(editing.template?.body ?? '');
  const [band, setBand] = useState<StarBand>(editing.template?.star_band ?? editing.band);
  const [scope, setScope] = useState<ReplyTemplateScope>('store');
  const save = useMutation({
    mutationFn: () =>
      editing.template?.id
        ? updateTemplateCall(storeId, editing.template.id, { star_band: band, body })
        : createTemplateCall(storeId, { star_band: band, body, scope }),
    onSuccess: (r) => {
      notifications.show({ color: 'teal', message: r.message, autoClose: TOAST_MS });
      void qc.invalidateQueries({ queryKey: draftKeys.all });
      onDone();
    },
  });
  const fieldErrors = save.isError ? bodyErrors(save.error) : null;
  return (
    <Stack
      gap="xs"
      component="form"
      onSubmit={(e) => {
        e.preventDefault();
        if (!save.isPending) save.mutate();
      }}
    >
      <NativeSelect
        label={t('reviews.templates.band')}
        value={band}
        onChange={(e) => setBand(e.currentTarget.value as StarBand)}
        data={STAR_BANDS.map((b) => ({ value: b, label: reviewTemplateJa.bands[b] }))}
      />
      <Textarea
        label={t('reviews.templates.body')}
        description={t('reviews.templates.nameHint')}
        value={body}
        onChange={(e) => setBody(e.currentTarget.value)}
        autosize
        minRows={3}
        maxRows={10}
        data-autofocus
        maxLength={REPLY_TEMPLATE_MAX_BYTES}
        error={fieldErrors ? fieldErrors.join(' ') : undefined}
      />
      {!editing.template && canEditAgency && (
        <Radio.Group
          label={t('reviews.templates.scope')}
          value={scope}
          onChange={(v) => setScope(v as ReplyTemplateScope)}
        >
          <Group gap="md" mt={4}>
            <Radio value="store" label={t('reviews.templates.scopes.store')} />
            <Radio value="agency" label={t('reviews.templates.scopes.agency')} />
          </Group>
        </Radio.Group>
      )}
      <ErrorAlert lines={save.isError && !fieldErrors ? errorLines(save.error) : null} />
      <Group justify="flex-end" gap="xs">
        <Button variant="default" onClick={onDone}>
          {t('reviews.templates.cancel')}
        </Button>
        <Button type="submit" loading={save.isPending}>
          {t('reviews.templates.save')}
        </Button>
      </Group>
    </Stack>
  );
}

function TemplateItem({
  storeId,
  template,
  n,
  onEdit,
}: {
  storeId: number;
  template: ReplyTemplateView;
  n: number;
  onEdit: () => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const del = useMutation({
    mutationFn: () => deleteTemplateCall(storeId, template.id ?? 0),
    onSuccess: (r) => {
      notifications.show({ color: 'teal', message: r.message, autoClose: TOAST_MS });
      void qc.invalidateQueries({ queryKey: draftKeys.all });
    },
  });
  return (
    <Paper withBorder p="sm" radius="sm" data-testid={`template-${template.key}`}>
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Badge variant="light" color={template.source === 'builtin' ? 'gray' : 'blue'}>
            {t(`reviews.templates.sources.${template.source}`)}
          </Badge>
          {template.editable && template.id !== null && (
            <Group gap={4}>
              <Button
                size="compact-xs"
                variant="subtle"
                onClick={onEdit}
                aria-label={t('reviews.templates.editOne', { n })}
              >
                {t('reviews.templates.edit')}
              </Button>
              <Button
                size="compact-xs"
                variant="subtle"
                color="red"
                onClick={() => setConfirming(true)}
                aria-label={t('reviews.templates.deleteOne', { n })}
              >
                {t('reviews.templates.delete')}
              </Button>
            </Group>
          )}
        </Group>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {template.body}
        </Text>
        {confirming && (
          <Group gap="xs" role="alertdialog" aria-label={t('reviews.templates.deleteConfirm')}>
            <Text size="sm">{t('reviews.templates.deleteConfirm')}</Text>
            <Button
              size="compact-sm"
              color="red"
              loading={del.isPending}
              onClick={() => del.mutate()}
            >
              {t('reviews.templates.deleteYes')}
            </Button>
            <Button size="compact-sm" variant="default" onClick={() => setConfirming(false)}>
              {t('reviews.templates.cancel')}
            </Button>
          </Group>
        )}
        <ErrorAlert lines={del.isError ? errorLines(del.error) : null} />
      </Stack>
    </Paper>
  );
}

function TemplatesOf({ storeId }: { storeId: number }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<Editing | null>(null);
  const list = useQuery({
    queryKey: draftKeys.templates(storeId),
    queryFn: ({ signal }) => templatesCall(storeId, signal),
  });
  if (list.isPending)
    return (
      <Center py="md">
        <Loader aria-label={t('reviews.templates.loading')} />
      </Center>
    );
  if (list.isError) return <ErrorAlert lines={errorLines(list.error)} />;
  const { templates, can_edit, can_edit_agency } = list.data;
  let n = 0;
  return (
    <Stack gap="lg">
      <Text size="sm" c="dimmed">
        {t('reviews.templates.intro')}
      </Text>
      {STAR_BANDS.map((band) => {
        const mine = templates.filter((x) => x.star_band === band);
        const builtin = mine.length > 0 && mine.every((x) => x.source === 'builtin');
        return (
          <Stack key={band} gap="xs" component="section" aria-labelledby={`band-${band}`}>
            <Group justify="space-between" gap="xs" wrap="wrap">
              <Title order={3} size="h5" id={`band-${band}`}>
                {reviewTemplateJa.bands[band]}
              </Title>
              {can_edit && (
                <Button
                  size="compact-sm"
                  variant="light"
                  onClick={() => setEditing({ band, template: null })}
                  aria-label={t('reviews.templates.addTo', { band: reviewTemplateJa.bands[band] })}
                >
                  {t('reviews.templates.add')}
                </Button>
              )}
            </Group>
            {builtin && (
              <Text size="xs" c="dimmed">
                {t('reviews.templates.builtinNote')}
              </Text>
            )}
            {editing?.band === band && !editing.template && (
              <TemplateForm
                storeId={storeId}
                editing={editing}
                canEditAgency={can_edit_agency}
                onDone={() => setEditing(null)}
              />
            )}
            {mine.map((x) => {
              n += 1;
              return editing?.template?.key === x.key ? (
                <TemplateForm
                  key={x.key}
                  storeId={storeId}
                  editing={editing}
                  canEditAgency={can_edit_agency}
                  onDone={() => setEditing(null)}
                />
              ) : (
                <TemplateItem
                  key={x.key}
                  storeId={storeId}
                  template={x}
                  n={n}
                  onEdit={() => setEditing({ band, template: x })}
                />
              );
            })}
          </Stack>
        );
      })}
    </Stack>
  );
}

/**
 * 「返信テンプレート」 above the inbox (ADR 0091): a dialog listing, per star band, the
 * templates that serve a store (its own, its agency's, or the standard ones), to add, edit and
 * delete. With several stores chosen, a selector picks the store.
 */
export function ReplyTemplatesButton({ storeIds }: { storeIds: number[] }) {
  const { t } = useTranslation();
  const { stores } = useSelection();
  const [opened, { open, close }] = useDisclosure(false);
  const [picked, setPicked] = useState<number | null>(null);
  const storeId = picked !== null && storeIds.includes(picked) ? picked : (storeIds[0] ?? null);
  if (storeId === null) return null;
  const nameOf = (id: number) => stores.find((s) => s.id === id)?.name ?? `#${id}`;
  return (
    <>
      <Button variant="default" size="compact-sm" onClick={open}>
        {t('reviews.templates.open')}
      </Button>
      <Modal opened={opened} onClose={close} title={t('reviews.templates.title')} size="lg">
        <Stack>
          {storeIds.length > 1 && (
            <NativeSelect
              label={t('reviews.templates.store')}
              value={String(storeId)}
              onChange={(e) => setPicked(Number(e.currentTarget.value))}
              data={storeIds.map((id) => ({ value: String(id), label: nameOf(id) }))}
            />
          )}
          <TemplatesOf key={storeId} storeId={storeId} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('reviews.templates.close')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
