import { Button, Group, Stack, Table, Text } from '@mantine/core';
import { Modal } from '@/components/ui/modal';
import { fieldLabels, knowledgeLabels, type registrationFormRequest } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';

export type RegistrationOut = z.output<typeof registrationFormRequest>;

const CONFIRM_FIELDS = [
  'full_name',
  'company_name',
  'store_name',
  'email',
  'phone',
  'knowledge',
  'agent_code',
  'client_company_name',
  'agency_name',
] as const;

const shown = (v: RegistrationOut, f: (typeof CONFIRM_FIELDS)[number]): string => {
  if (f === 'knowledge') return v.knowledge ? knowledgeLabels[v.knowledge] : '';
  return v[f] ?? '';
};

/** The confirmation before sending: every answer, or "not entered", with back and send. */
export function RegistrationConfirmModal({
  pending,
  onBack,
  onSend,
}: {
  /** The checked answers; null: closed. */
  pending: RegistrationOut | null;
  onBack: () => void;
  onSend: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={pending !== null}
      onClose={onBack}
      title={t('screens.registerInformation.confirmTitle')}
      size="lg"
    >
      {pending && (
        <Stack>
          <Text size="sm">{t('screens.registerInformation.confirmLead')}</Text>
          <Table withTableBorder withColumnBorders>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w="40%">{t('screens.registerInformation.registerType')}</Table.Th>
                <Table.Td>
                  {pending.register_type === 1
                    ? t('screens.registerInformation.typeAgency')
                    : t('screens.registerInformation.typeStore')}
                </Table.Td>
              </Table.Tr>
              {CONFIRM_FIELDS.map((f) => (
                <Table.Tr key={f}>
                  <Table.Th>{fieldLabels[f]}</Table.Th>
                  <Table.Td>
                    {shown(pending, f) || (
                      <Text span c="dimmed" size="sm">
                        {t('screens.registerInformation.notEntered')}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Group justify="flex-end">
            <Button variant="default" onClick={onBack}>
              {t('actions.back')}
            </Button>
            <Button onClick={onSend}>{t('actions.send')}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** The answer once the registration was received: its message, and back to the login. */
export function RegistrationDoneModal({
  done,
  onBackToLogin,
}: {
  /** The message; null: closed. */
  done: string | null;
  onBackToLogin: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={done !== null}
      onClose={onBackToLogin}
      title={t('screens.registerInformation.successTitle')}
      withCloseButton={false}
      closeOnClickOutside={false}
    >
      <Stack>
        <Text>{done}</Text>
        <Button onClick={onBackToLogin}>{t('screens.registerInformation.backToLogin')}</Button>
      </Stack>
    </Modal>
  );
}
