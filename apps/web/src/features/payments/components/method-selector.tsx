import { Button, Group, Loader, Radio, Stack } from '@mantine/core';
import { paymentJa, type PaymentMethodKey } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorLines } from '@/lib/api-client';
import {
  changeMethodCall,
  paymentKeys,
  usePaymentMethods,
  useSelectedMethod,
} from '../api/payments-api';
import { useChoice } from './use-choice';

/**
 * The payment-method selector (spec 1 §2, §3): a method the store may not use
 * (`payment_btn_disable`, agency invoice for a direct customer) is shown but cannot be chosen.
 */
export function MethodSelector({ storeId }: { storeId: number }) {
  const { t } = useTranslation();
  const methods = usePaymentMethods(storeId);
  const selected = useSelectedMethod(storeId);
  const { value, setValue, busy, lines, submit } = useChoice(
    paymentKeys.selectedMethod(storeId),
    paymentJa.methodChanged,
  );

  if (methods.isPending || selected.isPending)
    return <Loader size="sm" aria-label={t('app.loading')} />;
  if (methods.error || selected.error)
    return <ErrorAlert lines={errorLines(methods.error ?? selected.error)} />;

  const current = selected.data?.key ?? null;
  const chosen = value ?? current;

  const change = async () => {
    if (chosen) await submit(() => changeMethodCall(storeId, chosen as PaymentMethodKey));
  };

  return (
    <Stack gap="sm">
      <ErrorAlert lines={lines} />
      <Radio.Group
        label={paymentJa.labels.payment_name}
        value={chosen}
        onChange={(v) => setValue(v)}
      >
        <Group mt="xs">
          {methods.data.map((m) => (
            <Radio
              key={m.key}
              value={m.key}
              disabled={m.payment_btn_disable}
              label={
                m.payment_btn_disable
                  ? `${m.name}${t('paymentSettings.methodUnavailable')}`
                  : m.name
              }
            />
          ))}
        </Group>
      </Radio.Group>
      <Group>
        <Button
          onClick={() => void change()}
          loading={busy}
          disabled={!chosen || chosen === current}
        >
          {t('paymentSettings.change')}
        </Button>
      </Group>
    </Stack>
  );
}
