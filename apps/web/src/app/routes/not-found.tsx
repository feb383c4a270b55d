import { Anchor, Box, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** Any unknown path: 'Page Not Found' with a link to the main page. */
export function NotFoundRoute() {
  const { t } = useTranslation();
  return (
    <Box mih="100vh" bg="gray.0">
      <Center mih="100vh" p="md">
        <Paper shadow="sm" radius="md" p="xl" maw={480} w="100%">
          <Stack align="center">
            <Text fz={64} fw={700} c="blue.6" lh={1}>
              404
            </Text>
            <Title order={1} fz={28}>
              {t('screens.notFound.title')}
            </Title>
            <Text c="dimmed">{t('screens.notFound.lead')}</Text>
            <Anchor component={Link} to="/">
              {t('screens.notFound.home')}
            </Anchor>
          </Stack>
        </Paper>
      </Center>
    </Box>
  );
}
