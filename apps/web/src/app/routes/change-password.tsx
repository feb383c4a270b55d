import { Card, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ChangePasswordForm } from '../../features/account/components/change-password-form';

/** /change-password. */
export function ChangePasswordRoute() {
  const { t } = useTranslation();
  return (
    <Stack maw={560}>
      <Title order={2}>{t('account.passwordTitle')}</Title>
      <Card withBorder padding="lg">
        <ChangePasswordForm />
      </Card>
    </Stack>
  );
}
