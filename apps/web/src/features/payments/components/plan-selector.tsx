import { Anchor, Button, Group, Loader, Select, Stack, Text } from '@mantine/core';
import { paymentJa, type PlanId } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorLines } from '@/lib/api-client';
import { helpUrl } from '@/lib/env';
import { changePlanCall, paymentKeys, usePaymentPlans, useSelectedPlan } from '../api/payments-api';
import { useChoice } from './use-choice';

/** YYYY-MM-DD as the screens write dates (YYYY/MM/DD). */
const day = (d: string) => d.replaceAll('-', '/');

/**
 * The plan selector of spec 1 §2: the plans with their monthly price, a help link and the update
 * button. A change during a paid period waits for the next one (ADR 0050), and says so.
 */
export function PlanSelector({ storeId }: { storeId: number }) {
  const { t } = useTranslation();
  const plans = usePaymentPlans(storeId);
  const selected = useSelectedPlan(storeId);
  const { value, setValue, busy, lines, submit } = useChoice(
    paymentKeys.selectedPlan(storeId),
    paymentJa.planChanged,
  );

  if (plans.isPending || selected.isPending)
    return <Loader size="sm" aria-label={t('app.loading')} />;
  if (plans.error || selected.error)
    return <ErrorAlert lines={errorLines(plans.error ?? selected.error)} />;

  const current = selected.data;
  // What the store will be billed on next: the plan waiting for the next period, else the current.
  const effective = current ? String(current.next_plan?.key ?? current.key) : null;
  const chosen = value ?? effective;

  const update = async () => {
    if (chosen) await submit(() => changePlanCall(storeId, Number(chosen) as PlanId));
  };

  return (
    <Stack gap="sm">
      <ErrorAlert lines={lines} />
      <Group justify="space-between" wrap="wrap">
        <Text size="sm" data-testid="current-plan">
          {current
            ? t('paymentSettings.currentPlan', { name: current.name })
            : t('paymentSettings.noPlan')}
        </Text>
        {/* The external help site (spec 1 §1): open to every payment state, unlike the screens. */}
        <Anchor href={helpUrl()} target="_blank" rel="noopener noreferrer" size="sm">
          {t('paymentSettings.help')}
        </Anchor>
      </Group>
      <Group align="flex-end" wrap="wrap">
        <Select
          label={paymentJa.labels.payment_plan}
          w={320}
          data={plans.data.map((p) => ({
            value: String(p.key),
            label: t('paymentSettings.planOption', {
              name: p.name,
              price: p.price.toLocaleString('ja-JP'),
            }),
          }))}
          value={chosen}
          onChange={setValue}
          allowDeselect={false}
        />
        <Button
          onClick={() => void update()}
          loading={busy}
          disabled={!chosen || chosen === effective}
        >
          {t('paymentSettings.update')}
        </Button>
      </Group>
      {current?.next_plan && current.next_billing_on && (
        <Text size="sm" c="blue.8" data-testid="next-plan">
          {current.next_plan.name}：{paymentJa.planEffectiveNext(day(current.next_billing_on))}
        </Text>
      )}
    </Stack>
  );
}
