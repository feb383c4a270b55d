import { Card, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ChangePasswordForm } from '../../features/account/components/change-password-form';
import { PageTitle } from '../../components/ui/page-title';

/** /change-password. */
export function ChangePasswordRoute() {
  const { t } = useTranslation();
  return (
    <Stack maw={560}>
      <PageTitle>{t('account.passwordTitle')}</PageTitle>
      <Card withBorder padding="lg">
        <ChangePasswordForm />
      </Card>
    </Stack>
  );
}
