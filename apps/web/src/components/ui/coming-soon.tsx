import { Card, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The honest content area of a screen that a later issue fills. */
export function ComingSoon({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={2}>{title}</Title>
      <Card withBorder padding="xl" radius="md" data-testid="coming-soon">
        <Text fw={600}>準備中</Text>
        <Text c="dimmed">{t('screens.comingSoon.lead')}</Text>
        <Text c="dimmed" size="sm">
          {t('screens.comingSoon.body')}
        </Text>
      </Card>
    </Stack>
  );
}
