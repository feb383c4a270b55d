import { useState } from 'react';
import { Button, Checkbox, Group, Stack } from '@mantine/core';
import { Modal } from '@/components/ui/modal';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorLines } from '@/lib/api-client';
import { withLoading } from '@/lib/loading';
import { logout, setUser, useSession } from '@/lib/session';
import { confirmTermCall } from '../api/auth-api';
import { TermsText } from './terms-text';

/**
 * Shown while the signed-in user has not agreed to the terms (agreed_terms 0). Half the
 * screen wide; confirm is disabled until the box is ticked; closing logs out (spec 1 §4).
 */
export function TermsDialog({ onAgreed }: { onAgreed: () => void }) {
  const { t } = useTranslation();
  const session = useSession();
  const [ticked, setTicked] = useState(false);
  const [errors, setErrors] = useState<string[] | null>(null);
  const opened = session.isLoggedIn && !session.agreeTerm;

  const confirm = async () => {
    if (!session.email) return;
    setErrors(null);
    try {
      const r = await withLoading(() => confirmTermCall(session.email ?? ''));
      setUser(r.data);
      setTicked(false);
      onAgreed();
    } catch (e) {
      setErrors(errorLines(e));
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={() => void logout()}
      title={t('screens.terms.title')}
      // 50% of the screen (spec 1 §2). A percentage would be of Mantine's inner box, which keeps
      // 5vw free on each side: 45% of the screen.
      size="50vw"
      closeOnClickOutside={false}
      centered
    >
      <Stack>
        <TermsText />
        <ErrorAlert lines={errors} />
        <Checkbox
          label={t('screens.terms.agree')}
          checked={ticked}
          onChange={(e) => setTicked(e.currentTarget.checked)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => void logout()}>
            {t('screens.terms.close')}
          </Button>
          <Button disabled={!ticked} onClick={() => void confirm()}>
            {t('screens.terms.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
