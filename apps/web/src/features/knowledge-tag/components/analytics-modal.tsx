import { useState } from 'react';
import { Button, Group, Radio, Stack, Text } from '@mantine/core';
import { Modal } from '@/components/ui/modal';
import { ANALYTICS_OPTIONS } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';

/** The confirm modal of /add-knowledge-tag: it asks about the analytics mode (spec 2 §2, §3). */
export function AnalyticsModal({
  opened,
  initial,
  saving,
  onClose,
  onConfirm,
}: {
  opened: boolean;
  initial: number | null;
  saving: boolean;
  onClose: () => void;
  onConfirm: (option: number) => void;
}) {
  const { t } = useTranslation();
  const [value, setValue] = useState(String(initial ?? 0));
  return (
    <Modal opened={opened} onClose={onClose} title={t('knowledgeTag.analytics.title')} centered>
      <Stack>
        <Text size="sm">{t('knowledgeTag.analytics.text')}</Text>
        <Radio.Group label={t('knowledgeTag.analytics.label')} value={value} onChange={setValue}>
          <Stack gap="xs" mt="xs">
            {ANALYTICS_OPTIONS.map((o) => (
              <Radio key={o} value={String(o)} label={t(`knowledgeTag.analytics.options.${o}`)} />
            ))}
          </Stack>
        </Radio.Group>
        {value === '2' && (
          <Text size="xs" c="dimmed">
            {t('knowledgeTag.analytics.optInHelp')}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('knowledgeTag.analytics.cancel')}
          </Button>
          <Button loading={saving} onClick={() => onConfirm(Number(value))}>
            {t('knowledgeTag.analytics.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
