import { useState } from 'react';
import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { ja } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorAlert } from '@/components/ui/error-alert';
import { errorLines } from '@/lib/api-client';
import { confirmEmailChangeCall } from '../api/account-api';

/**
 * /confirm-email?token=…: the link mailed to a new login address (ADR 0065). The change is
 * applied by a button rather than on open, so that a mail scanner that follows the link does
 * not make it for the user.
 */
export function ConfirmEmail({ token }: { token: string | null }) {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<{ email: string; message: string } | null>(null);

  const confirm = async () => {
    if (!token) return;
    setErrors(null);
    setBusy(true);
    try {
      const r = await confirmEmailChangeCall(token);
      setDone({ email: r.data.email, message: r.message ?? ja.emailChangeDone });
    } catch (e) {
      setErrors(errorLines(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack>
      <Title order={1} size="h3" ta="center">
        {t('screens.confirmEmail.title')}
      </Title>
      {done ? (
        <>
          <Alert color="teal" role="status">
            <Text>{done.message}</Text>
            <Text>{t('screens.confirmEmail.doneTo', { email: done.email })}</Text>
          </Alert>
          <Anchor component={Link} to="/login" ta="center">
            {t('screens.confirmEmail.toLogin')}
          </Anchor>
        </>
      ) : token ? (
        <>
          <ErrorAlert lines={errors} />
          <Text>{t('screens.confirmEmail.lead')}</Text>
          <Button onClick={() => void confirm()} loading={busy}>
            {t('screens.confirmEmail.submit')}
          </Button>
        </>
      ) : (
        <ErrorAlert lines={[t('screens.confirmEmail.missing')]} />
      )}
    </Stack>
  );
}
