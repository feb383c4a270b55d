import { useState } from 'react';
import { Button, Group, Loader, Radio, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { paymentJa, type PaymentMethodKey } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorLines } from '@/lib/api-client';
import { TOAST_MS } from '@/lib/timing';
import {
  changeMethodCall,
  paymentKeys,
  usePaymentMethods,
  useSelectedMethod,
} from '../api/payments-api';

/**
 * The payment-method selector (spec 1 §2, §3): a method the store may not use
 * (`payment_btn_disable`, agency invoice for a direct customer) is shown but cannot be chosen.
 */
export function MethodSelector({ storeId }: { storeId: number }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const methods = usePaymentMethods(storeId);
  const selected = useSelectedMethod(storeId);
  const [value, setValue] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [lines, setLines] = useState<string[] | null>(null);

  if (methods.isPending || selected.isPending)
    return <Loader size="sm" aria-label={t('app.loading')} />;
  if (methods.error || selected.error)
    return <ErrorAlert lines={errorLines(methods.error ?? selected.error)} />;

  const current = selected.data?.key ?? null;
  const chosen = value ?? current;

  const change = async () => {
    if (!chosen) return;
    setBusy(true);
    setLines(null);
    try {
      const r = await changeMethodCall(storeId, chosen as PaymentMethodKey);
      qc.setQueryData(paymentKeys.selectedMethod(storeId), r.data);
      setValue(null);
      notifications.show({
        color: 'teal',
        message: r.message ?? paymentJa.methodChanged,
        autoClose: TOAST_MS,
      });
    } catch (e) {
      setLines(errorLines(e));
    } finally {
      setBusy(false);
    }
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
