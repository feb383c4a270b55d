import { Card, SimpleGrid, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AccountInformationForm } from '../../features/account/components/account-information-form';
import { ChangePasswordForm } from '../../features/account/components/change-password-form';
import { PageTitle } from '../../components/ui/page-title';

/** /setting-account: the account information and password forms on one page. */
export function SettingAccountRoute() {
  const { t } = useTranslation();
  return (
    <Stack>
      <PageTitle>{t('screens.settingAccount.title')}</PageTitle>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder padding="lg">
          <Title order={4} mb="md">
            {t('account.informationTitle')}
          </Title>
          <AccountInformationForm />
        </Card>
        <Card withBorder padding="lg">
          <Title order={4} mb="md">
            {t('account.passwordTitle')}
          </Title>
          <ChangePasswordForm />
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
