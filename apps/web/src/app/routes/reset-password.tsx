import { notifications } from '@mantine/notifications';
import { ja } from '@tenpo/domain';
import { useNavigate, useSearchParams } from 'react-router';
import { ResetPasswordForm } from '../../features/auth/components/reset-password-form';

/** /reset-password?token=…&email=…; on success the route is replaced with /login. */
export function ResetPasswordRoute() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  return (
    <ResetPasswordForm
      token={params.get('token')}
      email={params.get('email')}
      onDone={(message) => {
        notifications.show({ color: 'teal', message: message ?? ja.resetPasswordDone });
        void navigate('/login', { replace: true });
      }}
    />
  );
}
