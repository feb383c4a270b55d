import { Suspense, lazy } from 'react';
import { useNavigate } from 'react-router';
import { LoginForm } from '../../features/auth/components/login-form';
import { useSession } from '../../lib/session';

// Only a signed-in user who has not agreed yet sees the dialog: /login loads it then (ADR 0017).
const TermsDialog = lazy(() =>
  import('../../features/auth/components/terms-dialog').then((m) => ({ default: m.TermsDialog })),
);

/** /login: after login go to / unless the terms are not agreed yet (then the dialog shows). */
export function LoginRoute() {
  const navigate = useNavigate();
  const session = useSession();
  return (
    <>
      <LoginForm onDone={(agreed) => agreed && void navigate('/', { replace: true })} />
      {session.isLoggedIn && !session.agreeTerm && (
        <Suspense fallback={null}>
          <TermsDialog onAgreed={() => void navigate('/', { replace: true })} />
        </Suspense>
      )}
    </>
  );
}
