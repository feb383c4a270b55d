import { Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReviewView } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/ui/error-alert';
import { Modal } from '@/components/ui/modal';
import { errorLines } from '@/lib/api-client';
import { TOAST_MS } from '@/lib/timing';
import { deleteReplyCall, reviewKeys } from '../api/reviews-api';

/** 返信を削除 asks first; a refusal (not connected, Google failing) stays in the dialog. */
export function DeleteReplyDialog({
  review,
  opened,
  onClose,
}: {
  review: ReviewView;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const del = useMutation({
    mutationFn: () => deleteReplyCall(review),
    onSuccess: (r) => {
      notifications.show({
        color: 'teal',
        message: r.message ?? t('reviews.reply.deleted'),
        autoClose: TOAST_MS,
      });
      void qc.invalidateQueries({ queryKey: reviewKeys.lists });
      onClose();
    },
  });
  const close = () => {
    if (del.isPending) return;
    del.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={t('reviews.remove.title')} centered>
      <Stack>
        <ErrorAlert lines={del.isError ? errorLines(del.error) : null} />
        <Text size="sm">{t('reviews.remove.body')}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={close} data-autofocus>
            {t('actions.cancel')}
          </Button>
          <Button color="red" loading={del.isPending} onClick={() => del.mutate()}>
            {t('reviews.remove.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
