import { useState } from 'react';
import { Button, FileInput, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  IMAGE_MIME_TYPES,
  IMAGE_SIZE_LIMIT_KB,
  accountInformationRequest,
  fieldLabels,
  ja,
  type User,
} from '@tenpo/domain';
import { useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ErrorAlert } from '@/components/ui/error-alert';
import { PasswordField } from '@/components/ui/password-field';
import { errorLines } from '@/lib/api-client';
import { setUser } from '@/lib/session';
import { accountInformationCall, updateAccountInformationCall } from '../api/account-api';
import { imageFileError } from './image-file';

type Values = {
  name: string;
  email: string;
  company_name: string;
  store_name: string;
  phone: string;
  current_password: string;
};
type Out = z.output<typeof accountInformationRequest>;

const valuesOf = (u: User): Values => ({
  name: u.name ?? '',
  email: u.email,
  company_name: u.company_name ?? '',
  store_name: u.store_name ?? '',
  phone: u.phone ?? '',
  current_password: '',
});

/** The request's rules, and the current password when the address changes (ADR 0065). */
const schemaFor = (current: string) =>
  accountInformationRequest.superRefine((v, ctx) => {
    if (v.email !== current.toLowerCase() && !v.current_password)
      ctx.addIssue({
        code: 'custom',
        path: ['current_password'],
        message: ja.required(fieldLabels.current_password),
      });
  });

function InformationForm({
  user,
  onDone,
  onCancel,
}: {
  user: User;
  onDone?: () => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [errors, setErrors] = useState<string[] | null>(null);
  const [logo, setLogo] = useState<File | null>(null);
  const [logoError, setLogoError] = useState<string | null>(null);
  const form = useForm<Values, unknown, Out>({
    resolver: zodResolver(schemaFor(user.email)) as unknown as Resolver<Values, unknown, Out>,
    defaultValues: valuesOf(user),
  });
  const fe = form.formState.errors;
  const emailChanging = form.watch('email').trim().toLowerCase() !== user.email.toLowerCase();

  const submit = form.handleSubmit(async (v) => {
    if (logo && imageFileError(logo)) return;
    setErrors(null);
    try {
      const r = await updateAccountInformationCall({ ...v, logo });
      setUser(r.data);
      qc.setQueryData(['account-information'], r);
      const mailed = v.email !== user.email.toLowerCase();
      // The address changes only once its mailed link is opened: say so, and long enough to read.
      notifications.show({
        color: 'teal',
        message: r.message ?? (mailed ? ja.emailChangeRequested : ja.updateSuccess),
        autoClose: mailed ? 10000 : 2000,
      });
      onDone?.();
    } catch (e) {
      setErrors(errorLines(e));
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label={t('account.informationTitle')}>
      <Stack>
        <ErrorAlert lines={errors} />
        {/* In the modal, focus starts on the first field rather than on the × (Mantine). */}
        <TextInput
          data-autofocus
          label={t('account.name')}
          withAsterisk
          error={fe.name?.message}
          {...form.register('name')}
        />
        <TextInput
          label={t('auth.email')}
          type="email"
          withAsterisk
          error={fe.email?.message}
          {...form.register('email')}
        />
        <PasswordField
          label={t('account.currentPassword')}
          description={t('account.currentPasswordForEmail')}
          autoComplete="current-password"
          withAsterisk={emailChanging}
          error={fe.current_password?.message}
          {...form.register('current_password')}
        />
        {emailChanging && (
          <Text size="sm" c="dimmed">
            {t('account.emailChangeNote')}
          </Text>
        )}
        <TextInput
          label={t('account.companyName')}
          error={fe.company_name?.message}
          {...form.register('company_name')}
        />
        <TextInput
          label={t('account.storeName')}
          error={fe.store_name?.message}
          {...form.register('store_name')}
        />
        <TextInput
          label={t('account.phone')}
          inputMode="numeric"
          error={fe.phone?.message}
          {...form.register('phone')}
        />
        <FileInput
          label={t('account.logo')}
          description={t('account.logoHint', { kb: IMAGE_SIZE_LIMIT_KB })}
          // The picker offers only the images the server takes (image/* would offer SVG, HEIC…).
          accept={IMAGE_MIME_TYPES.join(',')}
          clearable
          value={logo}
          onChange={(f) => {
            setLogo(f);
            setLogoError(f ? imageFileError(f) : null);
          }}
          error={logoError}
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

/** Change information (spec 1 §5): name and email required, the rest optional. */
export function AccountInformationForm(props: { onDone?: () => void; onCancel?: () => void }) {
  const info = useQuery({ queryKey: ['account-information'], queryFn: accountInformationCall });
  if (info.isPending) return <Loader />;
  if (info.isError) return <ErrorAlert lines={errorLines(info.error)} />;
  return <InformationForm user={info.data.data} {...props} />;
}
