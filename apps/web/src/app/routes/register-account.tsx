import { useCallback } from 'react';
import { notifications } from '@mantine/notifications';
import { ja } from '@tenpo/domain';
import { useNavigate, useSearchParams } from 'react-router';
import { RegisterAccountForm } from '../../features/auth/components/register-account-form';
import { AppQueryProvider } from '../query-provider';

/** /register-account?token=…; on success the route is replaced with /login. */
export function RegisterAccountRoute() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  // Replace, not push: Back from the form must not land on the dead link and count down again.
  const onInvalid = useCallback(
    () => void navigate('/register-information', { replace: true }),
    [navigate],
  );
  return (
    <AppQueryProvider>
      <RegisterAccountForm
        token={params.get('token')}
        onInvalid={onInvalid}
        onDone={(message) => {
          notifications.show({ color: 'teal', message: message ?? ja.registerDone });
          void navigate('/login', { replace: true });
        }}
      />
    </AppQueryProvider>
  );
}
