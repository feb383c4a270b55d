import { useState } from 'react';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { Modal } from '@/components/ui/modal';
import { useTranslation } from 'react-i18next';

/** Google's rich-results test, opened on the shop's page (spec 2 §2). */
export const RICH_RESULTS_TEST = 'https://search.google.com/test/rich-results';

const isWebUrl = (v: string): boolean => {
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.includes('.');
  } catch {
    return false;
  }
};

/** Asks for the website URL and opens the external rich-results test with it in a new tab. */
export function RichResultsModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const open = () => {
    const v = url.trim();
    if (!isWebUrl(v)) {
      setError(t('knowledgeTag.richResults.invalid'));
      return;
    }
    window.open(`${RICH_RESULTS_TEST}?url=${encodeURIComponent(v)}`, '_blank', 'noopener');
    onClose();
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('knowledgeTag.richResults.title')} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          open();
        }}
      >
        <Stack>
          <Text size="sm">{t('knowledgeTag.richResults.text')}</Text>
          <TextInput
            label={t('knowledgeTag.richResults.url')}
            placeholder="https://example.com/"
            value={url}
            error={error}
            onChange={(e) => {
              setUrl(e.currentTarget.value);
              setError(null);
            }}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('knowledgeTag.richResults.cancel')}
            </Button>
            <Button type="submit">{t('knowledgeTag.richResults.open')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
