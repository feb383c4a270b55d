import { useState } from 'react';
import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { passwordPairForm, type PasswordPairForm } from '@tenpo/domain';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorLines } from '@/lib/api-client';
import { withLoading } from '@/lib/loading';
import { resetPasswordCall } from '../api/auth-api';
import { PasswordPairFields } from './password-pair-fields';
import { PageTitle } from '@/components/ui/page-title';

/** /reset-password: token and email come from the query string (spec 1 §2). */
export function ResetPasswordForm({
  token,
  email,
  onDone,
}: {
  token: string | null;
  email: string | null;
  onDone: (message: string | undefined) => void;
}) {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<string[] | null>(null);
  const form = useForm<PasswordPairForm>({
    resolver: zodResolver(passwordPairForm),
    defaultValues: { password: '', password_confirmation: '' },
  });

  if (!token || !email) {
    return (
      <Stack>
        <PageTitle ta="center">{t('screens.resetPassword.title')}</PageTitle>
        <Alert color="red" variant="light" role="alert">
          {t('screens.resetPassword.missing')}
        </Alert>
        <Anchor component={Link} to="/forgot-password" ta="center">
          {t('screens.forgotPassword.title')}
        </Anchor>
      </Stack>
    );
  }

  const submit = form.handleSubmit(async (v) => {
    setErrors(null);
    try {
      const r = await withLoading(() => resetPasswordCall({ ...v, token, email }));
      onDone(r.message);
    } catch (e) {
      setErrors(errorLines(e));
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label={t('screens.resetPassword.title')}>
      <Stack>
        <PageTitle ta="center">{t('screens.resetPassword.title')}</PageTitle>
        <Text c="dimmed" size="sm">
          {t('screens.resetPassword.lead')}
        </Text>
        <ErrorAlert lines={errors} />
        <PasswordPairFields register={form.register} errors={form.formState.errors} />
        <Button type="submit" fullWidth loading={form.formState.isSubmitting}>
          {t('screens.resetPassword.submit')}
        </Button>
      </Stack>
    </form>
  );
}
