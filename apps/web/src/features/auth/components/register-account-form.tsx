import { useEffect, useState } from 'react';
import { Button, Loader, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { ja, passwordPairForm, type PasswordPairForm } from '@tenpo/domain';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/ui/error-alert';
import { ApiError, errorLines } from '@/lib/api-client';
import { withLoading } from '@/lib/loading';
import { registerCall, verifyRegisterTokenCall } from '../api/auth-api';
import { PasswordPairFields } from './password-pair-fields';
import { PageTitle } from '@/components/ui/page-title';

/** Countdown before a bad link sends the user back to the registration form (spec 1 §9). */
export const INVALID_TOKEN_COUNTDOWN_S = 10;

function InvalidToken({ lines, onLeave }: { lines: string[]; onLeave: () => void }) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(INVALID_TOKEN_COUNTDOWN_S);
  useEffect(() => {
    if (left <= 0) {
      onLeave();
      return;
    }
    const id = setTimeout(() => setLeft((n) => n - 1), 1000);
    return () => clearTimeout(id);
  }, [left, onLeave]);
  return (
    <Stack>
      <ErrorAlert lines={lines} title={t('screens.registerAccount.invalid')} />
      <Text ta="center" aria-live="polite">
        {t('screens.registerAccount.countdown', { seconds: Math.max(0, left) })}
      </Text>
      <Button variant="light" onClick={onLeave}>
        {t('screens.registerAccount.goNow')}
      </Button>
    </Stack>
  );
}

/** /register-account: the token is checked on open, then a password is set (spec 1 §2). */
export function RegisterAccountForm({
  token,
  onInvalid,
  onDone,
}: {
  token: string | null;
  onInvalid: () => void;
  onDone: (message: string | undefined) => void;
}) {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<string[] | null>(null);
  const verify = useQuery({
    queryKey: ['register-verify-token', token],
    queryFn: () => verifyRegisterTokenCall(token ?? ''),
    enabled: Boolean(token),
    retry: false,
    gcTime: 0,
  });
  const form = useForm<PasswordPairForm>({
    resolver: zodResolver(passwordPairForm),
    defaultValues: { password: '', password_confirmation: '' },
  });

  let body;
  if (!token) {
    body = <InvalidToken lines={[ja.accessTokenExpired]} onLeave={onInvalid} />;
  } else if (verify.isPending) {
    body = (
      <Stack align="center">
        <Loader />
        <Text c="dimmed">{t('screens.registerAccount.checking')}</Text>
      </Stack>
    );
  } else if (verify.isError) {
    body = <InvalidToken lines={errorLines(verify.error)} onLeave={onInvalid} />;
  } else {
    const email = verify.data.data.email;
    const submit = form.handleSubmit(async (v) => {
      setErrors(null);
      try {
        const r = await withLoading(() => registerCall({ ...v, email, token }));
        onDone(r.message);
      } catch (e) {
        const tokenErr = e instanceof ApiError && e.fieldErrors().token !== undefined;
        setErrors(tokenErr ? [ja.accessTokenExpired] : errorLines(e));
      }
    });
    body = (
      <form onSubmit={submit} noValidate aria-label={t('screens.registerAccount.title')}>
        <Stack>
          <Text c="dimmed" size="sm">
            {t('screens.registerAccount.lead')}
          </Text>
          <ErrorAlert lines={errors} />
          <TextInput label={t('auth.email')} value={email} readOnly />
          <PasswordPairFields register={form.register} errors={form.formState.errors} />
          <Button type="submit" fullWidth loading={form.formState.isSubmitting}>
            {t('screens.registerAccount.submit')}
          </Button>
        </Stack>
      </form>
    );
  }

  return (
    <Stack>
      <PageTitle ta="center">{t('screens.registerAccount.title')}</PageTitle>
      {body}
    </Stack>
  );
}
