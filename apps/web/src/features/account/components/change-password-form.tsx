import { useState } from 'react';
import { Button, Group, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { zodResolver } from '@hookform/resolvers/zod';
import { changePasswordRequest, ja, type ChangePasswordRequest } from '@tenpo/domain';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/ui/error-alert';
import { PasswordField } from '@/components/ui/password-field';
import { errorLines } from '@/lib/api-client';
import { changePasswordCall } from '../api/account-api';

const empty: ChangePasswordRequest = {
  current_password: '',
  password: '',
  password_confirmation: '',
};

/** Change password (spec 1 §5): on success the form resets and a success message shows. */
export function ChangePasswordForm({
  onDone,
  onCancel,
}: {
  onDone?: () => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<string[] | null>(null);
  const form = useForm<ChangePasswordRequest>({
    resolver: zodResolver(changePasswordRequest),
    defaultValues: empty,
  });
  const fe = form.formState.errors;

  const submit = form.handleSubmit(async (v) => {
    setErrors(null);
    try {
      const r = await changePasswordCall(v);
      form.reset(empty);
      notifications.show({
        color: 'teal',
        message: r.message ?? ja.passwordChanged,
        autoClose: 2000,
      });
      onDone?.();
    } catch (e) {
      setErrors(errorLines(e));
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label={t('account.passwordTitle')}>
      <Stack>
        <ErrorAlert lines={errors} />
        {/* In the modal, focus starts on the first field rather than on the × (Mantine). */}
        <PasswordField
          data-autofocus
          label={t('account.currentPassword')}
          autoComplete="current-password"
          withAsterisk
          error={fe.current_password?.message}
          {...form.register('current_password')}
        />
        <PasswordField
          label={t('account.newPassword')}
          autoComplete="new-password"
          withAsterisk
          error={fe.password?.message}
          {...form.register('password')}
        />
        <PasswordField
          label={t('account.newPasswordConfirmation')}
          autoComplete="new-password"
          withAsterisk
          error={fe.password_confirmation?.message}
          {...form.register('password_confirmation')}
        />
        <Group justify="flex-end">
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              {t('actions.cancel')}
            </Button>
          )}
          <Button type="submit" loading={form.formState.isSubmitting}>
            {t('actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
