import type { ReactNode } from 'react';
import { Button, Card, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { paymentPanel, type PaymentState } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageTitle } from './page-title';

/** Trial ended: the unlock button replaces the route with /register-payment (spec 1 §2). */
export function PayRequiredPanel() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Center py="xl">
      <Card withBorder padding="xl" radius="md" maw={560} w="100%" data-testid="pay-required">
        <Stack align="center" gap="md">
          <ThemeIcon size={56} radius="xl" color="orange" variant="light" aria-hidden>
            <span style={{ fontSize: 28 }}>¥</span>
          </ThemeIcon>
          <Title order={2} size="h3">
            {t('payment.payRequiredTitle')}
          </Title>
          <Text ta="center">{t('payment.payRequired')}</Text>
          <Button onClick={() => navigate('/register-payment', { replace: true })}>
            {t('payment.unlock')}
          </Button>
        </Stack>
      </Card>
    </Center>
  );
}

/** Payment failed: features are limited until the user acts on the mail they were sent. */
export function ConfirmMailPanel() {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Card withBorder padding="xl" radius="md" maw={560} w="100%" data-testid="confirm-mail">
        <Stack align="center" gap="md">
          <ThemeIcon size={56} radius="xl" color="red" variant="light" aria-hidden>
            <span style={{ fontSize: 28 }}>✉</span>
          </ThemeIcon>
          <Title order={2} size="h3">
            {t('payment.confirmMailTitle')}
          </Title>
          <Text ta="center">{t('payment.confirmMail')}</Text>
        </Stack>
      </Card>
    </Center>
  );
}

/**
 * Replaces a guarded screen by the panel its payment state calls for; payment failure has
 * priority over the ended trial (spec 1 §4).
 */
export function PaymentGate({
  state,
  title,
  children,
}: {
  state: PaymentState | null;
  /** The screen's title, for a gate around a whole screen: the panel keeps it named (h1). */
  title?: ReactNode;
  children: ReactNode;
}) {
  const panel = state ? paymentPanel(state) : null;
  if (!panel) return <>{children}</>;
  const shown = panel === 'confirm-mail' ? <ConfirmMailPanel /> : <PayRequiredPanel />;
  if (title === undefined) return shown;
  return (
    <Stack>
      <PageTitle>{title}</PageTitle>
      {shown}
    </Stack>
  );
}
