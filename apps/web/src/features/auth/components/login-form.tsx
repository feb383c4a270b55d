import { useRef, useState, type ChangeEvent, type FormEvent, type MouseEvent } from 'react';
import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { ErrorAlert } from '@/components/ui/error-alert';
import { PasswordField } from '@/components/ui/password-field';
import { ja } from '@/i18n/ja';
import { errorLines } from '@/lib/api-client';
import { withLoading } from '@/lib/loading';
import { navigateTo } from '@/lib/navigation';
import { applyLogin } from '@/lib/session';
import { loginCall } from '../api/auth-api';
import type { LoginCheck, LoginField, checkLogin } from './login-schema';
import { PageTitle } from '@/components/ui/page-title';

// /login is the first page most visits open, so its form carries neither zod (the rules load
// when the user reaches the form), nor a form library, nor the router, nor i18next: the strings
// are the ja resource's own (ADR 0017). It behaves as the other forms do: messages on submit,
// then checked again as the user types; the first wrong field takes focus.
let rules: Promise<{ checkLogin: typeof checkLogin }> | null = null;
const loadRules = () =>
  (rules ??= import('./login-schema').catch((e: unknown) => {
    rules = null; // a failed fetch is tried again on the next check
    throw e;
  }));

type Values = Record<LoginField, string>;

/** A link that moves within the app (the router's navigation once it runs; a page load before). */
const appLink = (to: string) => ({
  href: to,
  onClick: (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || e.button !== 0) return;
    e.preventDefault();
    navigateTo(to);
  },
});

/** /login: email and password (spec 1 §5); `onDone` decides where to go next. */
export function LoginForm({ onDone }: { onDone: (agreedTerms: boolean) => void }) {
  const t = ja.screens.login;
  const [values, setValues] = useState<Values>({ email: '', password: '' });
  const [fieldErrors, setFieldErrors] = useState<LoginCheck['errors']>({});
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [errors, setErrors] = useState<string[] | null>(null);
  const inputs = {
    email: useRef<HTMLInputElement>(null),
    password: useRef<HTMLInputElement>(null),
  };

  const change = (field: LoginField) => (e: ChangeEvent<HTMLInputElement>) => {
    const next = { ...values, [field]: e.currentTarget.value };
    setValues(next);
    if (submitted) void loadRules().then((m) => setFieldErrors(m.checkLogin(next).errors));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (submitting) return;
    setSubmitted(true);
    setSubmitting(true);
    try {
      const check = (await loadRules()).checkLogin(values);
      setFieldErrors(check.errors);
      if (!check.data) {
        const first = (['email', 'password'] as const).find((f) => check.errors[f]);
        if (first) inputs[first].current?.focus();
        return;
      }
      setErrors(null);
      const body = check.data;
      const r = await withLoading(() => loginCall(body));
      applyLogin(r.data);
      onDone(r.data.user.agreed_terms === 1);
    } catch (err) {
      setErrors(errorLines(err));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form
      onSubmit={(e) => void submit(e)}
      onFocus={() => void loadRules().catch(() => undefined)}
      noValidate
      aria-label={t.title}
    >
      <Stack>
        <PageTitle ta="center">{t.title}</PageTitle>
        <Text c="dimmed" size="sm" ta="center">
          {t.lead}
        </Text>
        <ErrorAlert lines={errors} />
        <TextInput
          ref={inputs.email}
          name="email"
          label={ja.auth.email}
          type="email"
          autoComplete="email"
          withAsterisk
          value={values.email}
          onChange={change('email')}
          error={fieldErrors.email}
        />
        <PasswordField
          ref={inputs.password}
          name="password"
          label={ja.auth.password}
          autoComplete="current-password"
          withAsterisk
          value={values.password}
          onChange={change('password')}
          error={fieldErrors.password}
        />
        <Button type="submit" fullWidth loading={submitting}>
          {t.submit}
        </Button>
        <Group justify="space-between">
          <Anchor size="sm" {...appLink('/forgot-password')}>
            {t.forgot}
          </Anchor>
          <Anchor size="sm" {...appLink('/register-information')}>
            {t.register}
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
