import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { ChunkLoadError } from '../lib/chunk';

/** A screen failed to load or threw while rendering. */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const chunk = error instanceof ChunkLoadError;
  return (
    <Center mih="100vh" p="md">
      <Stack align="center" maw={480}>
        <Title order={2}>{chunk ? t('actions.errors.chunkFailed') : t('actions.errors.500')}</Title>
        {chunk && error.timedOut && <Text>{t('actions.errors.chunkLoad')}</Text>}
        <Button onClick={() => window.location.reload()}>{t('actions.reload')}</Button>
      </Stack>
    </Center>
  );
}
