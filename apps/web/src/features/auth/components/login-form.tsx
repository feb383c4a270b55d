import { useState } from 'react';
import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { loginRequest } from '@tenpo/domain';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { z } from 'zod';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorLines } from '@/lib/api-client';
import { withLoading } from '@/lib/loading';
import { applyLogin } from '@/lib/session';
import { loginCall } from '../api/auth-api';

type In = z.input<typeof loginRequest>;
type Out = z.output<typeof loginRequest>;

/** /login: email and password (spec 1 §5); `onDone` decides where to go next. */
export function LoginForm({ onDone }: { onDone: (agreedTerms: boolean) => void }) {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<string[] | null>(null);
  const form = useForm<In, unknown, Out>({
    resolver: zodResolver(loginRequest),
    defaultValues: { email: '', password: '' },
  });
  const fe = form.formState.errors;

  const submit = form.handleSubmit(async (v) => {
    setErrors(null);
    try {
      const r = await withLoading(() => loginCall(v));
      applyLogin(r.data);
      onDone(r.data.user.agreed_terms === 1);
    } catch (e) {
      setErrors(errorLines(e));
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label={t('screens.login.title')}>
      <Stack>
        <Title order={2} ta="center">
          {t('screens.login.title')}
        </Title>
        <Text c="dimmed" size="sm" ta="center">
          {t('screens.login.lead')}
        </Text>
        <ErrorAlert lines={errors} />
        <TextInput
          label={t('auth.email')}
          type="email"
          autoComplete="email"
          withAsterisk
          error={fe.email?.message}
          {...form.register('email')}
        />
        <PasswordInput
          label={t('auth.password')}
          autoComplete="current-password"
          withAsterisk
          error={fe.password?.message}
          {...form.register('password')}
        />
        <Button type="submit" fullWidth loading={form.formState.isSubmitting}>
          {t('screens.login.submit')}
        </Button>
        <Group justify="space-between">
          <Anchor component={Link} to="/forgot-password" size="sm">
            {t('screens.login.forgot')}
          </Anchor>
          <Anchor component={Link} to="/register-information" size="sm">
            {t('screens.login.register')}
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
