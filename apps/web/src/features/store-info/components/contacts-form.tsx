import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { contactsRequest, storeInfoLabels, type Contacts } from '@tenpo/domain';
import { useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/ui/error-alert';
import { saveContactsCall } from '../api/store-info-api';
import { useSaveSection } from './use-save-section';

type Values = { email: { value: string }[]; website_url: string };

/** Contacts and website (spec 2 §2, §3, §5): each e-mail valid, the website an http(s) URL. */
export function ContactsForm({ userId, contacts }: { userId: number; contacts: Contacts }) {
  const { t } = useTranslation();
  const form = useForm<Values>({
    defaultValues: {
      email: (contacts.email?.length ? contacts.email : ['']).map((value) => ({ value })),
      website_url: contacts.website_url.url ?? '',
    },
  });
  const emails = useFieldArray({ control: form.control, name: 'email' });
  const { save, saving, errors, onSubmit } = useSaveSection(
    userId,
    contactsRequest,
    saveContactsCall,
    form,
  );
  const fe = form.formState.errors;

  const submit = onSubmit(async (v) => {
    const list = v.email.map((e) => e.value.trim()).filter((e) => e !== '');
    await save({
      // "bracketed text list, or null" (spec 2 §7)
      email: list.length > 0 ? JSON.stringify(list) : null,
      website_url: v.website_url.trim() || null,
    });
  });

  // The schema's errors on `email` name the list; show them under the list.
  const emailError = (fe.email as { message?: string } | undefined)?.message;

  return (
    <form onSubmit={submit} noValidate aria-label={t('storeInfo.contactsTitle')}>
      <Stack>
        <ErrorAlert lines={errors} />
        <Stack gap={6}>
          <Text fw={500} size="sm">
            {storeInfoLabels.email}
          </Text>
          {emails.fields.map((f, i) => (
            <Group key={f.id} gap="xs" wrap="nowrap">
              <TextInput
                type="email"
                style={{ flex: 1 }}
                aria-label={`${storeInfoLabels.email} ${i + 1}`}
                {...form.register(`email.${i}.value`)}
              />
              {emails.fields.length > 1 && (
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('storeInfo.emailRemoveOf', {
                    label: storeInfoLabels.email,
                    n: i + 1,
                  })}
                  onClick={() => emails.remove(i)}
                >
                  ×
                </ActionIcon>
              )}
            </Group>
          ))}
          {emailError && (
            <Text c="red" size="sm" role="alert">
              {emailError}
            </Text>
          )}
          <Group>
            <Button
              variant="subtle"
              size="xs"
              disabled={emails.fields.length >= 10}
              onClick={() => emails.append({ value: '' })}
            >
              {t('storeInfo.emailAdd')}
            </Button>
          </Group>
        </Stack>
        <TextInput
          label={storeInfoLabels.website_url}
          type="url"
          placeholder="https://"
          error={fe.website_url?.message}
          {...form.register('website_url')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={saving}>
            {t('actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
