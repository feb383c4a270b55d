import { useEffect, useRef } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { Modal } from '@/components/ui/modal';
import { PAYMENT_RESULT, paymentJa } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

/**
 * The dialog after the return from the card provider (spec 1 §2, §4, §8): `stt_id=12999`
 * success, `stt_id=18999` failure. Closing takes `stt_id` out of the address, so a reload does
 * not show it again. `onSuccess` runs once per success shown.
 */
export function PaymentResultDialog({ onSuccess }: { onSuccess: () => void }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const stt = params.get('stt_id');
  const success = stt === String(PAYMENT_RESULT.success);
  const failed = stt === String(PAYMENT_RESULT.fail);
  const reported = useRef(false);
  useEffect(() => {
    if (success && !reported.current) {
      reported.current = true;
      onSuccess();
    }
  }, [success, onSuccess]);

  const close = () =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.delete('stt_id');
        return next;
      },
      { replace: true },
    );

  return (
    <Modal
      opened={success || failed}
      onClose={close}
      title={success ? paymentJa.paymentSuccessTitle : paymentJa.paymentFailedTitle}
      centered
    >
      <Stack>
        <Text c={success ? undefined : 'red'}>
          {success ? paymentJa.paymentSuccess : paymentJa.paymentFailed}
        </Text>
        <Group justify="flex-end">
          <Button onClick={close} data-autofocus>
            {t('actions.ok')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
