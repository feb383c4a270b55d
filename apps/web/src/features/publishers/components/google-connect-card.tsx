import { useState } from 'react';
import { Button, Card, Group, Image, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { PUBLISHER_STATUS, CONNECTED_PUBLISHER_STATUSES } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { useBrandTitle } from '@/lib/branding';
import { useNavigate } from 'react-router';
import { TimedErrorAlert } from '@/components/ui/timed-error-alert';
import { publisherKeys, publishersCall } from '../api/publishers-api';
import { useStartConnect } from '../hooks/use-start-connect';

/**
 * The business-profile card of /google-my-business (spec 1 §2, spec 3 §2): explanatory text
 * and a Connect button (check, refresh, connect URL, navigate). When the consent is done but
 * no location chosen yet, it offers the location picker; when connected, says so.
 */
export function GoogleConnectCard({ storeId }: { storeId: number }) {
  const { t } = useTranslation();
  const product = useBrandTitle();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<unknown>(null);
  const connect = useStartConnect(storeId);
  const rows = useQuery({
    queryKey: publisherKeys.list(storeId),
    queryFn: () => publishersCall(storeId),
    retry: false,
  });
  const google = rows.data?.find((r) => r.publisher_key === 'google_my_business');
  const waiting = google?.status === PUBLISHER_STATUS.requesting;
  const connected =
    google !== undefined &&
    (CONNECTED_PUBLISHER_STATUSES as readonly number[]).includes(google.status);

  const onConnect = () =>
    void connect.start('google_my_business').catch((e: unknown) => setFailure(e));

  return (
    <Card withBorder padding="xl" radius="md">
      <Stack>
        <Group wrap="nowrap" align="flex-start">
          <Image
            src={google?.logo_url ?? '/images/publisher/google_my_business.svg'}
            alt=""
            w={48}
            h={48}
          />
          <Stack gap="xs">
            <Text>{t('screens.googleMyBusiness.body', { product })}</Text>
            {waiting && <Text c="blue">{t('screens.googleMyBusiness.pending', { product })}</Text>}
            {connected && (
              <Text c="teal">
                {t('screens.googleMyBusiness.connected', { name: google.location_name ?? '' })}
              </Text>
            )}
          </Stack>
        </Group>
        <TimedErrorAlert error={failure} />
        <Group justify="flex-end">
          {connected && (
            <Button variant="default" onClick={() => void navigate('/connect-account')}>
              {t('screens.googleMyBusiness.toConnectAccount')}
            </Button>
          )}
          {waiting && (
            <Button variant="light" onClick={() => void navigate('/connect-location')}>
              {t('screens.googleMyBusiness.chooseLocation')}
            </Button>
          )}
          <Button loading={connect.busy !== null} onClick={onConnect}>
            {t('screens.googleMyBusiness.connect')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
