import { Button, Card, Center, Group, Loader, Stack, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { postalDigits } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorAlert } from '../../components/ui/error-alert';
import { PaymentGate } from '../../components/ui/payment-panels';
import { basicInformationCall, storeInfoKeys } from '../../features/store-info/api/store-info-api';
import { ContactsForm } from '../../features/store-info/components/contacts-form';
import { CoreForm } from '../../features/store-info/components/core-form';
import { DetailsForm } from '../../features/store-info/components/details-form';
import { SyncStatus } from '../../features/store-info/components/sync-status';
import type { PostalAnswer } from '../../features/store-info/components/core-form';
import {
  postalCodeCall,
  storeLookupKeys,
  useCategories,
  usePrefectures,
} from '../../features/store-lookups/api/store-lookups-api';
import { StoreMap } from '../../features/store-map/components/store-map';
import { errorLines } from '../../lib/api-client';
import { usePaymentState } from '../payment-state';
import { usePostStoreIds } from './post-setup';
import { PageTitle } from '../../components/ui/page-title';

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
  const qc = useQueryClient();
  // The choice lists of the form: JP and VN prefectures, Google's categories (spec 2 §5, §7).
  const areas = usePrefectures(userId);
  const prefectures: Record<string, string[]> = {};
  for (const a of areas.data ?? []) (prefectures[a.region_code] ??= []).push(a.name);
  const categories = useCategories(userId);
  const categoryOptions = (categories.data ?? []).map((c) => ({
    value: c.name,
    label: c.displayName,
  }));
  // The address and point of a postal code (the map's fallback when there is no geocoder).
  const lookupPostalCode = async (code: string): Promise<PostalAnswer | null> => {
    const digits = postalDigits(code);
    if (!digits) return null;
    const r = await qc.fetchQuery({
      queryKey: storeLookupKeys.postalCode(digits),
      queryFn: ({ signal }) => postalCodeCall(digits, signal),
      staleTime: Infinity,
    });
    return {
      prefecture: r.prefecture,
      locality: r.city,
      address1: r.town,
      latitude: r.zip_lat,
      longitude: r.zip_lng,
    };
  };

  return (
    <Stack maw={960}>
      <Group justify="space-between">
        <PageTitle>{t('storeInfo.title')}</PageTitle>
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
            <SyncStatus sync={data.google_sync} userId={userId} />
            <Card withBorder>
              <Title order={3} size="h4" mb="sm">
                {t('storeInfo.coreTitle')}
              </Title>
              <CoreForm
                userId={userId}
                core={data.core_information}
                prefectures={prefectures}
                categories={categoryOptions}
                lookupPostalCode={lookupPostalCode}
                map={(marker, onPick) => (
                  <StoreMap
                    latitude={marker.latitude}
                    longitude={marker.longitude}
                    onPick={onPick}
                  />
                )}
              />
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
