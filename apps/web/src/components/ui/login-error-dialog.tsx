import { Button, Group, Stack, Text } from '@mantine/core';
import { Modal } from './modal';
import { useTranslation } from 'react-i18next';

/**
 * The login-error warning of spec 1 §2 and spec 3 §4 (「すでに別のアカウントで…」). It cannot
 * be dismissed otherwise: confirming is the only way on, and the caller logs out.
 */
export function LoginErrorDialog({
  opened,
  onConfirm,
}: {
  opened: boolean;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onConfirm}
      title={t('layout.staleTitle')}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      centered
    >
      <Stack>
        <Text role="alert">{t('actions.errors.loginError')}</Text>
        <Group justify="flex-end">
          <Button onClick={onConfirm}>{t('actions.ok')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
