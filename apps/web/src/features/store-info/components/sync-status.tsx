import { Alert, Stack, Text } from '@mantine/core';
import type { GoogleSync } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { tokyoDateTime } from '@/lib/format';

const when = (iso: string) => tokyoDateTime(new Date(iso));

/**
 * Where the store's saves stand at Google (beyond the spec, ADR 0041): waiting their turn (10
 * edits a minute), taken, or refused with the fields Google named. Announced politely.
 */
export function SyncStatus({ sync }: { sync: GoogleSync }) {
  const { t } = useTranslation();
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
