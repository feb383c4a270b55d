import { useEffect, useState } from 'react';
import { Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { Modal } from '@/components/ui/modal';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CONNECT_RETURN_ERRORS,
  ja,
  LINKED_PUBLISHERS,
  publisherByKey,
  type ConnectReturnError,
  type PublisherRow,
} from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { errorLines } from '@/lib/api-client';
import { withLoading } from '@/lib/loading';
import { TOAST_MS } from '@/lib/timing';
import {
  disconnectCall,
  googleSyncCall,
  publisherKeys,
  publishersCall,
} from '../api/publishers-api';
import { useStartConnect } from '../hooks/use-start-connect';
import { PublisherTable } from './publisher-table';

const toastError = (lines: string[]) =>
  notifications.show({ color: 'red', message: lines.join('\n'), autoClose: TOAST_MS });
const toastSuccess = (message: string) =>
  notifications.show({ color: 'teal', message, autoClose: TOAST_MS });

/** The message for a provider's return with `?error=` (see the OAuth return route). */
export const returnErrorMessage = (error: ConnectReturnError, key: string | null): string => {
  const label = (key ? publisherByKey(key)?.label : undefined) ?? 'SNS';
  switch (error) {
    case 'access_denied':
    case 'denied':
      return ja.channelDenied(label);
    case 'invalid_state':
      return ja.channelStateInvalid;
    default:
      return ja.channelConnectFailed(label);
  }
};

/**
 * /connect-account (spec 1 §2): the store's four publishers with their state and actions.
 * Connect runs the consent flow; disconnect asks first (Facebook takes Instagram with it);
 * Google rows offer a sync. Failures are 2-second toasts.
 */
export function ConnectAccount({ storeId, role }: { storeId: number; role: number | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [params, setParams] = useSearchParams();
  const [leaving, setLeaving] = useState<PublisherRow | null>(null);
  const connect = useStartConnect(storeId);

  const list = useQuery({
    queryKey: publisherKeys.list(storeId),
    queryFn: () => publishersCall(storeId),
    retry: false,
  });
  useEffect(() => {
    if (list.isError) toastError(errorLines(list.error));
  }, [list.isError, list.error]);

  // The provider's return after a denied or failed consent.
  useEffect(() => {
    const error = params.get('error');
    if (!error) return;
    const known = (CONNECT_RETURN_ERRORS as readonly string[]).includes(error)
      ? (error as ConnectReturnError)
      : 'connect_failed';
    toastError([returnErrorMessage(known, params.get('publisher_key'))]);
    setParams({}, { replace: true });
  }, [params, setParams]);

  const refresh = (rows?: PublisherRow[]) => {
    if (rows) qc.setQueryData(publisherKeys.list(storeId), rows);
    return qc.invalidateQueries({ queryKey: publisherKeys.list(storeId) });
  };
  const disconnect = useMutation({
    mutationFn: (row: PublisherRow) => withLoading(() => disconnectCall(row, storeId)),
    onSuccess: async (r) => {
      setLeaving(null);
      toastSuccess(r.message ?? ja.disconnectSuccess);
      await refresh(r.data);
    },
    onError: (e) => {
      setLeaving(null);
      toastError(errorLines(e));
    },
  });
  const sync = useMutation({
    mutationFn: () => withLoading(() => googleSyncCall(storeId)),
    onSuccess: async (r) => {
      toastSuccess(r.message ?? ja.syncSuccess);
      await refresh();
    },
    onError: async (e) => {
      toastError(errorLines(e));
      // A failed sync may have written an error line on the row.
      await refresh();
    },
  });

  const onConnect = (row: PublisherRow) =>
    void connect.start(row.publisher_key).catch((e: unknown) => toastError(errorLines(e)));
  const onContinue = (row: PublisherRow) =>
    void navigate(
      row.publisher_key === 'google_my_business' ? '/connect-location' : '/facebook/connect-page',
    );

  const busy = connect.busy ?? (sync.isPending ? 'google_my_business' : null);
  const linked = leaving ? (LINKED_PUBLISHERS[leaving.publisher_key] ?? []) : [];

  return (
    <Stack>
      <Text c="dimmed">{t('screens.connectAccount.lead')}</Text>
      {list.isPending ? (
        <Center py="xl">
          <Loader aria-label={t('app.loading')} />
        </Center>
      ) : list.isError ? (
        <Center py="xl">
          <Button variant="light" onClick={() => void list.refetch()}>
            {t('actions.reload')}
          </Button>
        </Center>
      ) : (
        <PublisherTable
          rows={list.data}
          role={role}
          busy={busy}
          onConnect={onConnect}
          onDisconnect={setLeaving}
          onSync={() => sync.mutate()}
          onContinue={onContinue}
        />
      )}
      <Modal
        opened={leaving !== null}
        onClose={() => !disconnect.isPending && setLeaving(null)}
        title={t('screens.connectAccount.disconnectTitle')}
        centered
      >
        <Stack>
          <Text>
            {t('screens.connectAccount.disconnectConfirm', {
              name: leaving?.publisher_name ?? '',
            })}
          </Text>
          {linked.length > 0 && (
            <Text size="sm" c="dimmed">
              {t('screens.connectAccount.disconnectInstagram')}
            </Text>
          )}
          <Group justify="flex-end">
            <Button
              variant="default"
              disabled={disconnect.isPending}
              onClick={() => setLeaving(null)}
            >
              {t('actions.cancel')}
            </Button>
            <Button
              color="red"
              loading={disconnect.isPending}
              onClick={() => leaving && disconnect.mutate(leaving)}
            >
              {t('screens.connectAccount.disconnect')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
