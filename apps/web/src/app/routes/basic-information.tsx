import { Button, Card, Center, Group, Loader, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorAlert } from '../../components/ui/error-alert';
import { PaymentGate } from '../../components/ui/payment-panels';
import { basicInformationCall, storeInfoKeys } from '../../features/store-info/api/store-info-api';
import { ContactsForm } from '../../features/store-info/components/contacts-form';
import { CoreForm } from '../../features/store-info/components/core-form';
import { DetailsForm } from '../../features/store-info/components/details-form';
import { SyncStatus } from '../../features/store-info/components/sync-status';
import { errorLines } from '../../lib/api-client';
import { usePaymentState } from '../payment-state';
import { usePostStoreIds } from './post-setup';

/** While saves wait their turn at Google, the state is asked again this often. */
const PENDING_POLL_MS = 5000;

/**
 * /basic-information (spec 2 §2): the three forms on the first selected store (spec 2 §6), each
 * saved on its own; the line above them says where the saves stand at Google.
 */
export function BasicInformationRoute() {
  const { t } = useTranslation();
  const payment = usePaymentState();
  const userId = usePostStoreIds()[0];
  const info = useQuery({
    queryKey: storeInfoKeys.info(userId ?? 0),
    queryFn: () => basicInformationCall(userId ?? 0),
    enabled: userId !== undefined,
    refetchInterval: (q) =>
      (q.state.data?.google_sync.pending ?? 0) > 0 ? PENDING_POLL_MS : false,
  });
  const data = info.data;

  return (
    <Stack maw={960}>
      <Group justify="space-between">
        <Title order={2}>{t('storeInfo.title')}</Title>
        <Button component={Link} to="/media" variant="default">
          {t('storeInfo.addImage')}
        </Button>
      </Group>
      <PaymentGate state={payment}>
        {info.isPending ? (
          <Center mih={200}>
            <Loader aria-label={t('app.loading')} />
          </Center>
        ) : info.error || !data || userId === undefined ? (
          <ErrorAlert lines={errorLines(info.error)} />
        ) : (
          <Stack key={userId}>
            <SyncStatus sync={data.google_sync} />
            <Card withBorder>
              <Title order={3} size="h4" mb="sm">
                {t('storeInfo.coreTitle')}
              </Title>
              <CoreForm userId={userId} core={data.core_information} />
            </Card>
            {data.business_details && (
              <Card withBorder>
                <Title order={3} size="h4" mb="sm">
                  {t('storeInfo.detailsTitle')}
                </Title>
                <DetailsForm userId={userId} details={data.business_details} />
              </Card>
            )}
            <Card withBorder>
              <Title order={3} size="h4" mb="sm">
                {t('storeInfo.contactsTitle')}
              </Title>
              <ContactsForm userId={userId} contacts={data.contact_website_apps} />
            </Card>
          </Stack>
        )}
      </PaymentGate>
    </Stack>
  );
}
