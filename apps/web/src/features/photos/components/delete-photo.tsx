import { useState } from 'react';
import { Button, Group, Text } from '@mantine/core';
import { Modal } from '@/components/ui/modal';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ja as domainJa, type PhotoItem } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/api-client';
import { deletePhotoCall, photoKeys } from '../api/photos-api';

type Outcome = { ok: true } | { ok: false; text: string };

/**
 * Delete with a confirm dialog, then the "Deleted!" or "Error!" dialog (spec 2 §8): the failure
 * text when the server answered, the 500 message when it did not.
 */
export function DeletePhotoDialogs({
  userId,
  target,
  onClose,
}: {
  userId: number;
  target: PhotoItem | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const del = useMutation({
    mutationFn: (p: PhotoItem) => deletePhotoCall(p.id, userId),
    onSuccess: async () => {
      setOutcome({ ok: true });
      await qc.invalidateQueries({ queryKey: photoKeys.list(userId) });
    },
    onError: (e) =>
      setOutcome({
        ok: false,
        text:
          e instanceof ApiError && e.status > 0 ? t('media.deleteFailed') : domainJa.serverError,
      }),
    onSettled: onClose,
  });
  return (
    <>
      <Modal
        opened={target !== null && !del.isPending}
        onClose={onClose}
        title={t('media.confirmTitle')}
        centered
      >
        <Text size="sm">{t('media.confirmText')}</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={onClose}>
            {t('media.cancel')}
          </Button>
          <Button color="red" onClick={() => target && del.mutate(target)}>
            {t('media.confirm')}
          </Button>
        </Group>
      </Modal>
      <Modal
        opened={outcome !== null}
        onClose={() => setOutcome(null)}
        title={outcome?.ok ? t('media.deletedTitle') : t('media.errorTitle')}
        centered
      >
        <Text size="sm">{outcome?.ok ? t('media.deleted') : outcome?.text}</Text>
        <Group justify="flex-end" mt="md">
          <Button onClick={() => setOutcome(null)}>{t('media.ok')}</Button>
        </Group>
      </Modal>
    </>
  );
}
