import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * /google-my-business: the business-profile connect card. The connect flow (check, refresh,
 * connect URL, browser navigation) belongs to the channel-connection issue; until it lands the
 * button is shown disabled and says so.
 */
export function GoogleMyBusinessRoute() {
  const { t } = useTranslation();
  return (
    <Stack maw={720}>
      <Title order={2}>{t('screens.googleMyBusiness.title')}</Title>
      <Card withBorder padding="xl" radius="md">
        <Stack>
          <Text>{t('screens.googleMyBusiness.body')}</Text>
          <Group>
            <Button disabled>{t('screens.googleMyBusiness.connect')}</Button>
            <Badge color="gray" variant="light">
              準備中
            </Badge>
          </Group>
        </Stack>
      </Card>
    </Stack>
  );
}
