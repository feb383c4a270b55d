import { useState } from 'react';
import { Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import { Modal } from '@/components/ui/modal';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { paymentJa, type CreditCard } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorLines } from '@/lib/api-client';
import { CARD_TOAST_MS } from '@/lib/timing';
import { paymentKeys, removeCardCall } from '../api/payments-api';

/** The registered card (spec 1 §3): brand, masked number, expiry, and remove after a confirm. */
export function RegisteredCard({ storeId, card }: { storeId: number; card: CreditCard }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [lines, setLines] = useState<string[] | null>(null);
  const year = card.cc_expiration.slice(0, 4);
  const month = card.cc_expiration.slice(4, 6);

  const remove = async () => {
    setBusy(true);
    setLines(null);
    try {
      const r = await removeCardCall(storeId);
      setConfirming(false);
      qc.setQueryData(paymentKeys.card(storeId), null);
      notifications.show({
        color: 'teal',
        message: r.message ?? paymentJa.cardRemoved,
        autoClose: CARD_TOAST_MS,
      });
    } catch (e) {
      setLines(errorLines(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card withBorder maw={520} aria-label={t('paymentSettings.registeredCard')} role="region">
      <Group justify="space-between" wrap="nowrap">
        <Stack gap={4}>
          <Group gap="xs">
            <Badge variant="light">{paymentJa.brands[card.cardbrand_code]}</Badge>
            <Text ff="monospace" data-testid="card-number">
              {card.cc_number}
            </Text>
          </Group>
          <Text size="sm" c="dimmed">
            {t('paymentSettings.expiry', { month, year })}
          </Text>
        </Stack>
        <Button
          color="red"
          variant="light"
          onClick={() => {
            setLines(null);
            setConfirming(true);
          }}
        >
          {t('paymentSettings.remove')}
        </Button>
      </Group>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('paymentSettings.removeTitle')}
      >
        <Stack>
          <ErrorAlert lines={lines} />
          <Text size="sm">{t('paymentSettings.removeBody')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)} data-autofocus>
              {t('actions.cancel')}
            </Button>
            <Button color="red" loading={busy} onClick={() => void remove()}>
              {t('paymentSettings.remove')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
