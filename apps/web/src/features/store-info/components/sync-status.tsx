import { useState } from 'react';
import { Alert, Button, Group, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import type { BasicInformation, GoogleSync, GoogleVersion } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { errorLines } from '@/lib/api-client';
import { tokyoDateTime } from '@/lib/format';
import { googleVersionCall, storeInfoKeys } from '../api/store-info-api';

const when = (iso: string) => tokyoDateTime(new Date(iso));

/**
 * Where Google shows something other than what the store saved (getGoogleUpdated, ADR 0061):
 * each field with both values, and the choice of taking Google's or sending ours again.
 */
function GoogleChanged({ version, userId }: { version: GoogleVersion; userId?: number }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [busy, setBusy] = useState<'accept' | 'resend' | null>(null);
  const choose = async (choice: 'accept' | 'resend') => {
    if (userId === undefined) return;
    setBusy(choice);
    try {
      const r = await googleVersionCall(userId, choice);
      qc.setQueryData<BasicInformation>(storeInfoKeys.info(userId), r.data);
      notifications.show({ color: 'teal', message: r.message, autoClose: 2000 });
    } catch (e) {
      notifications.show({ color: 'red', message: errorLines(e).join('\n') });
    } finally {
      setBusy(null);
    }
  };
  const show = (v: string) => v || t('storeInfo.sync.empty');
  return (
    <Alert
      color="orange"
      variant="light"
      title={t('storeInfo.sync.changedTitle')}
      data-testid="google-changed"
    >
      <Stack gap="xs">
        <Text size="sm">{t('storeInfo.sync.changedLead')}</Text>
        <Table.ScrollContainer minWidth={320}>
          <Table withTableBorder withColumnBorders>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('storeInfo.sync.field')}</Table.Th>
                <Table.Th>{t('storeInfo.sync.ours')}</Table.Th>
                <Table.Th>{t('storeInfo.sync.google')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {version.changed.map((c) => (
                <Table.Tr key={c.field}>
                  <Table.Td>{c.label}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-word' }}>{show(c.ours)}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-word' }}>{show(c.google)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {userId !== undefined && (
          <Group gap="xs">
            <Button
              size="xs"
              loading={busy === 'accept'}
              disabled={busy !== null}
              onClick={() => void choose('accept')}
            >
              {t('storeInfo.sync.accept')}
            </Button>
            <Button
              size="xs"
              variant="default"
              loading={busy === 'resend'}
              disabled={busy !== null}
              onClick={() => void choose('resend')}
            >
              {t('storeInfo.sync.resend')}
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}

/**
 * Where the store's saves stand at Google (beyond the spec, ADR 0041): waiting their turn (10
 * edits a minute), taken, or refused with the fields Google named; and what Google shows in
 * their place or holds for review (ADR 0061). Announced politely.
 */
export function SyncStatus({ sync, userId }: { sync: GoogleSync; userId?: number }) {
  const { t } = useTranslation();
  const version = sync.google_version;
  return (
    <Stack gap="xs" aria-live="polite" data-testid="google-sync">
      {sync.refused.map((r) => (
        <Alert
          key={r.section}
          color="red"
          variant="light"
          title={t(`storeInfo.sync.refused.${r.section}`)}
        >
          {r.message}
        </Alert>
      ))}
      {version && version.changed.length > 0 && <GoogleChanged version={version} userId={userId} />}
      {version && version.pending.length > 0 && (
        <Alert color="yellow" variant="light" title={t('storeInfo.sync.pendingTitle')}>
          {t('storeInfo.sync.pendingLead', { fields: version.pending.join('、') })}
        </Alert>
      )}
      {sync.pending > 0 ? (
        <Alert color="yellow" variant="light">
          {t('storeInfo.sync.pending', { count: sync.pending })}
        </Alert>
      ) : (
        <Text size="sm" c="dimmed">
          {sync.last_sent_at
            ? t('storeInfo.sync.sent', { at: when(sync.last_sent_at) })
            : t('storeInfo.sync.none')}
          {sync.pulled_at ? ` ${t('storeInfo.sync.pulled', { at: when(sync.pulled_at) })}` : ''}
        </Text>
      )}
    </Stack>
  );
}
