import { useState } from 'react';
import {
  Anchor,
  Button,
  Checkbox,
  Group,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { Modal } from '@/components/ui/modal';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  DEFAULT_AGENT_CODE,
  KNOWLEDGE_OPTIONS,
  fieldLabels,
  ja,
  knowledgeLabels,
  registrationFormRequest,
  type Knowledge,
} from '@tenpo/domain';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorLines } from '@/lib/api-client';
import { withLoading } from '@/lib/loading';
import { useLeaveGuard } from '@/lib/use-leave-guard';
import { registrationFormCall, type RegistrationBody } from '../api/auth-api';
import {
  RegistrationConfirmModal,
  RegistrationDoneModal,
  type RegistrationOut,
} from './register-information-dialogs';
import { TermsText } from './terms-text';
import { PageTitle } from '@/components/ui/page-title';

type Values = {
  full_name: string;
  company_name: string;
  store_name: string;
  email: string;
  phone: string;
  knowledge: Knowledge | null;
  agent_code: string;
  client_company_name: string;
  agency_name: string;
  register_type: '0' | '1';
  agreed_terms: boolean;
};
type Out = RegistrationOut;

/**
 * The registration's state: the form (judged by the domain's registrationFormRequest), the
 * answers waiting for confirmation, the server's answer, and the send itself.
 */
function useRegisterInformation() {
  const { t } = useTranslation();
  const [pending, setPending] = useState<Out | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [errors, setErrors] = useState<string[] | null>(null);
  const [termsOpen, setTermsOpen] = useState(false);
  const form = useForm<Values, unknown, Out>({
    resolver: zodResolver(registrationFormRequest) as unknown as Resolver<Values, unknown, Out>,
    defaultValues: {
      full_name: '',
      company_name: '',
      store_name: '',
      email: '',
      phone: '',
      knowledge: null,
      agent_code: DEFAULT_AGENT_CODE,
      client_company_name: '',
      agency_name: '',
      register_type: '0',
      agreed_terms: false,
    },
  });
  const fe = form.formState.errors;
  // Typed answers are not lost to a reload or a stray link (issue 23 item 3).
  useLeaveGuard(form.formState.isDirty && done === null, t('common.unsavedLeave'), {
    signedIn: false,
  });

  const send = async () => {
    if (!pending) return;
    setErrors(null);
    try {
      const body: RegistrationBody = {
        ...pending,
        register_type: pending.register_type === 1 ? 1 : 0,
        agreed_terms: true,
      };
      const r = await withLoading(() => registrationFormCall(body));
      setPending(null);
      setDone(r.message ?? ja.registrationReceived);
    } catch (e) {
      setPending(null);
      setErrors(errorLines(e));
    }
  };

  return { form, fe, pending, setPending, done, errors, termsOpen, setTermsOpen, send };
}

/** /register-information: form, confirmation modal, success dialog (spec 1 §2). */
export function RegisterInformationForm({ onBackToLogin }: { onBackToLogin: () => void }) {
  const { t } = useTranslation();
  const { form, fe, pending, setPending, done, errors, termsOpen, setTermsOpen, send } =
    useRegisterInformation();

  return (
    <>
      <form
        onSubmit={form.handleSubmit((v) => setPending(v))}
        noValidate
        aria-label={t('screens.registerInformation.title')}
      >
        <Stack>
          <PageTitle ta="center">{t('screens.registerInformation.title')}</PageTitle>
          <Text c="dimmed" size="sm">
            {t('screens.registerInformation.lead')}
          </Text>
          <ErrorAlert lines={errors} />
          <Controller
            control={form.control}
            name="register_type"
            render={({ field }) => (
              <Radio.Group
                label={t('screens.registerInformation.registerType')}
                value={field.value}
                onChange={(v) => field.onChange(v)}
              >
                <Group mt={4}>
                  <Radio value="0" label={t('screens.registerInformation.typeStore')} />
                  <Radio value="1" label={t('screens.registerInformation.typeAgency')} />
                </Group>
              </Radio.Group>
            )}
          />
          <TextInput
            label={fieldLabels.full_name}
            description={t('screens.registerInformation.fullNameHint')}
            withAsterisk
            error={fe.full_name?.message}
            {...form.register('full_name')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={fieldLabels.company_name}
              withAsterisk
              error={fe.company_name?.message}
              {...form.register('company_name')}
            />
            <TextInput
              label={fieldLabels.store_name}
              withAsterisk
              error={fe.store_name?.message}
              {...form.register('store_name')}
            />
          </SimpleGrid>
          <TextInput
            label={fieldLabels.email}
            type="email"
            withAsterisk
            error={fe.email?.message}
            {...form.register('email')}
          />
          <TextInput
            label={fieldLabels.phone}
            description={t('screens.registerInformation.phoneHint')}
            inputMode="numeric"
            error={fe.phone?.message}
            {...form.register('phone')}
          />
          <Controller
            control={form.control}
            name="knowledge"
            render={({ field }) => (
              <Select
                label={fieldLabels.knowledge}
                placeholder={t('screens.registerInformation.knowledgePlaceholder')}
                data={KNOWLEDGE_OPTIONS.map((k) => ({ value: k, label: knowledgeLabels[k] }))}
                value={field.value}
                onChange={(v) => field.onChange(v as Knowledge | null)}
                clearable
                comboboxProps={{ withinPortal: true }}
                error={fe.knowledge?.message}
              />
            )}
          />
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput
              label={fieldLabels.agent_code}
              inputMode="numeric"
              error={fe.agent_code?.message}
              {...form.register('agent_code')}
            />
            <TextInput
              label={fieldLabels.client_company_name}
              error={fe.client_company_name?.message}
              {...form.register('client_company_name')}
            />
            <TextInput
              label={fieldLabels.agency_name}
              error={fe.agency_name?.message}
              {...form.register('agency_name')}
            />
          </SimpleGrid>
          <Group gap="xs" align="flex-start">
            <Checkbox
              label={t('screens.registerInformation.agree')}
              error={fe.agreed_terms?.message}
              {...form.register('agreed_terms')}
            />
            <Anchor component="button" type="button" size="sm" onClick={() => setTermsOpen(true)}>
              {t('screens.registerInformation.readTerms')}
            </Anchor>
          </Group>
          <Button type="submit" fullWidth>
            {t('screens.registerInformation.submit')}
          </Button>
          <Anchor component={Link} to="/login" size="sm" ta="center">
            {t('screens.forgotPassword.backToLogin')}
          </Anchor>
        </Stack>
      </form>

      <RegistrationConfirmModal
        pending={pending}
        onBack={() => setPending(null)}
        onSend={() => void send()}
      />

      <RegistrationDoneModal done={done} onBackToLogin={onBackToLogin} />

      <Modal
        opened={termsOpen}
        onClose={() => setTermsOpen(false)}
        title={t('screens.terms.title')}
        size="lg"
      >
        <TermsText height={400} />
      </Modal>
    </>
  );
}
