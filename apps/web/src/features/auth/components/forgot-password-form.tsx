import { useState } from 'react';
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { forgotPasswordRequest, ja } from '@tenpo/domain';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { z } from 'zod';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorLines } from '@/lib/api-client';
import { withLoading } from '@/lib/loading';
import { forgotPasswordCall } from '../api/auth-api';
import { PageTitle } from '@/components/ui/page-title';

type In = z.input<typeof forgotPasswordRequest>;
type Out = z.output<typeof forgotPasswordRequest>;

export function ForgotPasswordForm() {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<string[] | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const form = useForm<In, unknown, Out>({
    resolver: zodResolver(forgotPasswordRequest),
    defaultValues: { email: '' },
  });

  const submit = form.handleSubmit(async (v) => {
    setErrors(null);
    setSent(null);
    try {
      const r = await withLoading(() => forgotPasswordCall(v.email));
      setSent(r.message ?? ja.forgotPasswordSent);
    } catch (e) {
      setErrors(errorLines(e));
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label={t('screens.forgotPassword.title')}>
      <Stack>
        <PageTitle ta="center">{t('screens.forgotPassword.title')}</PageTitle>
        <Text c="dimmed" size="sm">
          {t('screens.forgotPassword.lead')}
        </Text>
        {sent && (
          <Alert color="teal" variant="light" role="status">
            {sent}
          </Alert>
        )}
        <ErrorAlert lines={errors} />
        <TextInput
          label={t('auth.email')}
          type="email"
          autoComplete="email"
          withAsterisk
          error={form.formState.errors.email?.message}
          {...form.register('email')}
        />
        <Button type="submit" fullWidth loading={form.formState.isSubmitting}>
          {t('screens.forgotPassword.submit')}
        </Button>
        <Anchor component={Link} to="/login" size="sm" ta="center">
          {t('screens.forgotPassword.backToLogin')}
        </Anchor>
      </Stack>
    </form>
  );
}
