import { useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { Modal } from '@/components/ui/modal';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorLines } from '@/lib/api-client';

/** A delete asks first; the server's refusal stays in the dialog. */
export function ConfirmDelete({
  title,
  body,
  opened,
  onClose,
  onConfirm,
}: {
  title: string;
  body: string;
  opened: boolean;
  onClose: () => void;
  onConfirm: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [lines, setLines] = useState<string[] | null>(null);
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      <Stack>
        <ErrorAlert lines={lines} />
        <Text size="sm">{body}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            {t('actions.cancel')}
          </Button>
          <Button
            color="red"
            loading={busy}
            onClick={() => {
              setBusy(true);
              setLines(null);
              onConfirm()
                .catch((e: unknown) => setLines(errorLines(e)))
                .finally(() => setBusy(false));
            }}
          >
            {t('admin.deleteConfirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
