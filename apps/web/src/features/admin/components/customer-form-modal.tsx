import { useState } from 'react';
import { Button, Group, PasswordInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { Modal } from '@/components/ui/modal';
import { notifications } from '@mantine/notifications';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  adminStoreCreateRequest,
  adminStoreUpdateRequest,
  ja,
  type AdminStoreRow,
} from '@tenpo/domain';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { Ja } from '@/i18n/ja';
import { ErrorAlert } from '@/components/ui/error-alert';
import { ApiError, errorLines } from '@/lib/api-client';
import { saveCustomerCall, type CustomerFields } from '../api/admin-api';

const valuesOf = (c: AdminStoreRow | null): CustomerFields => ({
  email: c?.email ?? '',
  name: c?.person_in_charge ?? '',
  company_name: c?.company_name ?? '',
  store_name: c?.store_name ?? '',
  phone: c?.phone ?? '',
  agent_code: c?.agent_code ?? '',
  status: String(c?.status ?? 1),
  role: String(c?.role ?? 1),
  password: '',
});

/** Create or change a customer of the platform (a store of no agency; ADR 0049). */
export function CustomerFormModal({
  customer,
  opened,
  onClose,
  onSaved,
}: {
  /** null: a new customer. */
  customer: AdminStoreRow | null;
  opened: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const schema = customer ? adminStoreUpdateRequest : adminStoreCreateRequest;
  const form = useForm<CustomerFields>({
    resolver: zodResolver(schema) as unknown as Resolver<CustomerFields>,
    defaultValues: valuesOf(customer),
  });
  const [lines, setLines] = useState<string[] | null>(null);
  const fe = form.formState.errors;
  const f = (k: keyof Ja['admin']['fields']) => t(`admin.fields.${k}`);

  const submit = form.handleSubmit(async () => {
    setLines(null);
    try {
      const r = await saveCustomerCall(customer?.id ?? null, form.getValues());
      notifications.show({
        color: 'teal',
        message: r.message ?? (customer ? ja.updateSuccess : ja.createSuccess),
        autoClose: 2000,
      });
      onSaved();
    } catch (e) {
      if (e instanceof ApiError)
        for (const [field, messages] of Object.entries(e.fieldErrors()))
          if (messages[0] && field in valuesOf(null))
            form.setError(field as keyof CustomerFields, { type: 'server', message: messages[0] });
      setLines(errorLines(e));
    }
  });

  const title = customer ? t('admin.editCustomer') : t('admin.addCustomer');
  const text = (k: keyof CustomerFields, required = false, numeric = false) => (
    <TextInput
      label={f(k)}
      withAsterisk={required}
      inputMode={numeric ? 'numeric' : undefined}
      type={k === 'email' ? 'email' : undefined}
      {...form.register(k)}
      error={fe[k]?.message}
    />
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
            {text('store_name', true)}
            {text('company_name', true)}
            {text('name', true)}
            {text('email', true)}
            <PasswordInput
              label={f('password')}
              withAsterisk={!customer}
              description={customer ? t('admin.passwordKeep') : t('admin.passwordNew')}
              autoComplete="new-password"
              {...form.register('password')}
              error={fe.password?.message}
            />
            {text('phone', false, true)}
            {text('agent_code', false, true)}
            <Controller
              control={form.control}
              name="role"
              render={({ field }) => (
                <Select
                  label={f('role')}
                  data={[
                    { value: '1', label: t('admin.roles.1') },
                    { value: '0', label: t('admin.roles.0') },
                  ]}
                  value={field.value}
                  onChange={(v) => field.onChange(v ?? '1')}
                  allowDeselect={false}
                  error={fe.role?.message}
                />
              )}
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
