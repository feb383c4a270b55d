import { Anchor, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorAlert } from '../../components/ui/error-alert';
import { useCreditCard } from '../../features/payments/api/payments-api';
import { CardForm } from '../../features/payments/components/card-form';
import { MethodSelector } from '../../features/payments/components/method-selector';
import { RegisteredCard } from '../../features/payments/components/registered-card';
import { Section } from '../../features/payments/components/section';
import { errorLines } from '../../lib/api-client';
import { useCurrentStore } from '../../lib/selection';
import { usePaidRefresh } from '../payment-state';
import { PageTitle } from '../../components/ui/page-title';

/**
 * /change-payment-method (spec 1 §2): switch the method, and replace the card. Registering a new
 * card is how a store whose charge failed fixes it (the API retries the failed charge).
 */
export function ChangePaymentMethodRoute() {
  const { t } = useTranslation();
  const store = useCurrentStore();
  return (
    <Stack maw={900}>
      <PageTitle>{t('paymentSettings.changeTitle')}</PageTitle>
      {store && <ChangePaymentMethod key={store.id} storeId={store.id} />}
      <Anchor component={Link} to="/register-payment" size="sm">
        {t('paymentSettings.backToRegister')}
      </Anchor>
    </Stack>
  );
}

function ChangePaymentMethod({ storeId }: { storeId: number }) {
  const { t } = useTranslation();
  const card = useCreditCard(storeId);
  const onRegistered = usePaidRefresh();
  return (
    <>
      <Section title={t('paymentSettings.methodSection')}>
        <MethodSelector storeId={storeId} />
      </Section>
      <Section title={t('paymentSettings.cardSection')}>
        {card.isPending ? (
          <Center>
            <Loader size="sm" aria-label={t('app.loading')} />
          </Center>
        ) : card.error ? (
          <ErrorAlert lines={errorLines(card.error)} />
        ) : (
          <>
            {card.data ? (
              <RegisteredCard storeId={storeId} card={card.data} />
            ) : (
              <Text size="sm">{t('paymentSettings.noCard')}</Text>
            )}
            <Title order={4} size="h5" mt="sm">
              {t('paymentSettings.newCard')}
            </Title>
            {card.data && (
              <Text size="sm" c="dimmed">
                {t('paymentSettings.replaceHint')}
              </Text>
            )}
            <CardForm
              storeId={storeId}
              submitLabel={t('paymentSettings.replaceCard')}
              onRegistered={onRegistered}
            />
          </>
        )}
      </Section>
    </>
  );
}
