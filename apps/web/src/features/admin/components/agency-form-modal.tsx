import { useState } from 'react';
import {
  Button,
  FileInput,
  Group,
  Image,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { Modal } from '@/components/ui/modal';
import { notifications } from '@mantine/notifications';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  adminAgencyCreateRequest,
  adminAgencyUpdateRequest,
  IMAGE_MIME_TYPES,
  IMAGE_SIZE_LIMIT_KB,
  ja,
  type AdminAgency,
} from '@tenpo/domain';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { Ja } from '@/i18n/ja';
import { ErrorAlert } from '@/components/ui/error-alert';
import { ApiError, errorLines } from '@/lib/api-client';
import { saveAgencyCall, type AgencyFields } from '../api/admin-api';
import { imageError } from './image-error';

const valuesOf = (a: AdminAgency | null): AgencyFields => ({
  email: a?.email ?? '',
  name: a?.name ?? '',
  company_name: a?.company_name ?? '',
  phone: a?.phone ?? '',
  agent_code: a?.agent_code ?? '',
  status: String(a?.status ?? 1),
  password: '',
  prefix: a?.prefix ?? '',
  title: a?.title ?? '',
});

/**
 * Create or change an agency (spec 3 §7 Admin; ADR 0049): its login, its white-label prefix,
 * title and favicon, and its logo. Judged by the domain's schema before it is sent; the
 * server's field errors (a prefix or an e-mail already taken, a file that is no image) are
 * shown under their fields.
 */
export function AgencyFormModal({
  agency,
  opened,
  onClose,
  onSaved,
}: {
  /** null: a new agency. */
  agency: AdminAgency | null;
  opened: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const schema = agency ? adminAgencyUpdateRequest : adminAgencyCreateRequest;
  const form = useForm<AgencyFields>({
    resolver: zodResolver(schema) as unknown as Resolver<AgencyFields>,
    defaultValues: valuesOf(agency),
  });
  const [logo, setLogo] = useState<File | null>(null);
  const [favicon, setFavicon] = useState<File | null>(null);
  const [fileErrors, setFileErrors] = useState<{ logo?: string; favicon?: string }>({});
  const [lines, setLines] = useState<string[] | null>(null);
  const fe = form.formState.errors;
  const f = (k: keyof Ja['admin']['fields']) => t(`admin.fields.${k}`);
  const prefix = form.watch('prefix');

  const submit = form.handleSubmit(async () => {
    if (fileErrors.logo || fileErrors.favicon) return;
    setLines(null);
    try {
      const r = await saveAgencyCall(agency?.id ?? null, form.getValues(), { logo, favicon });
      notifications.show({
        color: 'teal',
        message: r.message ?? (agency ? ja.updateSuccess : ja.createSuccess),
        autoClose: 2000,
      });
      onSaved();
    } catch (e) {
      if (e instanceof ApiError) {
        const files: { logo?: string; favicon?: string } = {};
        for (const [field, messages] of Object.entries(e.fieldErrors())) {
          if (!messages[0]) continue;
          if (field === 'logo' || field === 'favicon') files[field] = messages[0];
          else if (field in valuesOf(null))
            form.setError(field as keyof AgencyFields, { type: 'server', message: messages[0] });
        }
        setFileErrors(files);
      }
      setLines(errorLines(e));
    }
  });

  const title = agency ? t('admin.editAgency') : t('admin.addAgency');
  const fileInput = (
    key: 'logo' | 'favicon',
    value: File | null,
    set: (f: File | null) => void,
  ) => (
    <Stack gap={4}>
      <FileInput
        label={f(key)}
        description={t('admin.imageHint', { kb: IMAGE_SIZE_LIMIT_KB })}
        accept={IMAGE_MIME_TYPES.join(',')}
        clearable
        value={value}
        onChange={(file) => {
          set(file);
          setFileErrors((x) => ({
            ...x,
            [key]: file ? (imageError(file) ?? undefined) : undefined,
          }));
        }}
        error={fileErrors[key]}
      />
      {!value && agency && (key === 'logo' ? agency.logo_url : agency.favicon_url) && (
        <Group gap="xs">
          <Text size="xs" c="dimmed">
            {t('admin.current')}
          </Text>
          <Image
            src={key === 'logo' ? agency.logo_url : agency.favicon_url}
            alt={`${f(key)}（${t('admin.current')}）`}
            h={24}
            w="auto"
            fit="contain"
          />
        </Group>
      )}
    </Stack>
  );

  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg">
      <form
        aria-label={title}
        noValidate
        onSubmit={(e) => {
          form.clearErrors();
          void submit(e);
        }}
      >
        <Stack>
          <ErrorAlert lines={lines} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              data-autofocus
              label={f('company_name')}
              withAsterisk
              {...form.register('company_name')}
              error={fe.company_name?.message}
            />
            <TextInput
              label={f('name')}
              withAsterisk
              {...form.register('name')}
              error={fe.name?.message}
            />
            <TextInput
              label={f('email')}
              type="email"
              withAsterisk
              {...form.register('email')}
              error={fe.email?.message}
            />
            <PasswordInput
              label={f('password')}
              withAsterisk={!agency}
              description={agency ? t('admin.passwordKeep') : t('admin.passwordNew')}
              autoComplete="new-password"
              {...form.register('password')}
              error={fe.password?.message}
            />
            <TextInput
              label={f('phone')}
              inputMode="numeric"
              {...form.register('phone')}
              error={fe.phone?.message}
            />
            <TextInput
              label={f('agent_code')}
              inputMode="numeric"
              {...form.register('agent_code')}
              error={fe.agent_code?.message}
            />
            <TextInput
              label={f('prefix')}
              withAsterisk
              description={t('admin.prefixHint', { prefix: prefix || 'prefix' })}
              {...form.register('prefix')}
              error={fe.prefix?.message}
            />
            <TextInput
              label={f('title')}
              withAsterisk
              {...form.register('title')}
              error={fe.title?.message}
            />
            <Controller
              control={form.control}
              name="status"
              render={({ field }) => (
                <Select
                  label={f('status')}
                  data={[
                    { value: '1', label: t('admin.statuses.1') },
                    { value: '0', label: t('admin.statuses.0') },
                  ]}
                  value={field.value}
                  onChange={(v) => field.onChange(v ?? '1')}
                  allowDeselect={false}
                  error={fe.status?.message}
                />
              )}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {fileInput('logo', logo, setLogo)}
            {fileInput('favicon', favicon, setFavicon)}
          </SimpleGrid>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('actions.cancel')}
            </Button>
            <Button type="submit" loading={form.formState.isSubmitting}>
              {t('actions.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
