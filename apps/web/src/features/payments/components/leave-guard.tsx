import { useEffect } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { Modal } from '@/components/ui/modal';
import { paymentJa } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router';
import { isLeavingToPay } from '../purchase';

/**
 * The leave-blocking alert of spec 1 §2: while `when` holds, leaving the page asks first, for a
 * move inside the app (a confirm dialog: stay or leave) and for a reload, a closed tab or an
 * address typed (the browser's own beforeunload prompt). Changing only the query (stt_id) is
 * not leaving, nor is going to the card provider to pay.
 */
export function LeaveGuard({ when }: { when: boolean }) {
  const { t } = useTranslation();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      when && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!when) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (isLeavingToPay()) return;
      e.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      e.returnValue = paymentJa.leaveAlert;
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [when]);

  // The condition went away while the move waited (a card was registered meanwhile): let it go.
  useEffect(() => {
    if (blocker.state === 'blocked' && !when) blocker.proceed();
  }, [blocker, when]);

  const blocked = blocker.state === 'blocked';
  return (
    <Modal
      opened={blocked}
      onClose={() => blocker.reset?.()}
      title={t('paymentSettings.leaveTitle')}
      centered
    >
      <Stack>
        <Text>{paymentJa.leaveAlert}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => blocker.proceed?.()}>
            {t('paymentSettings.leave')}
          </Button>
          <Button onClick={() => blocker.reset?.()} data-autofocus>
            {t('paymentSettings.stay')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
