import { useEffect, useState } from 'react';
import { Anchor, Box, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorLines } from '@/lib/api-client';
import { manualPdfCall } from '../api/manual-api';

/** The Japanese manual (PDF) shown inside the product. */
export function ManualViewer() {
  const { t } = useTranslation();
  const pdf = useQuery({ queryKey: ['manual-pdf'], queryFn: manualPdfCall, staleTime: Infinity });
  const [url, setUrl] = useState<string | null>(null);

  useEffect(() => {
    if (!pdf.data) return;
    const u = URL.createObjectURL(new Blob([pdf.data], { type: 'application/pdf' }));
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [pdf.data]);

  if (pdf.isError) return <ErrorAlert lines={errorLines(pdf.error)} />;
  if (!url) {
    return (
      <Center py="xl">
        <Stack align="center">
          <Loader />
          <Text c="dimmed">{t('screens.manual.loading')}</Text>
        </Stack>
      </Center>
    );
  }
  return (
    <Stack gap="xs">
      <Group justify="flex-end">
        <Anchor href={url} target="_blank" rel="noopener" size="sm">
          {t('screens.manual.open')}
        </Anchor>
        <Anchor href={url} download="tenpo-manual.pdf" size="sm">
          {t('actions.download')}
        </Anchor>
      </Group>
      <Box
        component="iframe"
        src={url}
        title={t('screens.manual.title')}
        w="100%"
        h="calc(100vh - 200px)"
        style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 8 }}
      />
    </Stack>
  );
}
