import { useNavigate } from 'react-router';
import { LoginForm } from '../../features/auth/components/login-form';
import { TermsDialog } from '../../features/auth/components/terms-dialog';

/** /login: after login go to / unless the terms are not agreed yet (then the dialog shows). */
export function LoginRoute() {
  const navigate = useNavigate();
  return (
    <>
      <LoginForm onDone={(agreed) => agreed && void navigate('/', { replace: true })} />
      <TermsDialog onAgreed={() => void navigate('/', { replace: true })} />
    </>
  );
}
