import { Suspense, lazy } from 'react';
import { useNavigate } from 'react-router';
import { LoginForm } from '../../features/auth/components/login-form';
import { peekReturnPath } from '../../lib/return-path';
import { useSession } from '../../lib/session';

// Only a signed-in user who has not agreed yet sees the dialog: /login loads it then (ADR 0017).
const TermsDialog = lazy(() =>
  import('../../features/auth/components/terms-dialog').then((m) => ({ default: m.TermsDialog })),
);

/**
 * /login: after login go to / unless the terms are not agreed yet (then the dialog shows); a
 * user whose session ended goes back to the page they were on (issue 23 item 3; the app's
 * layout forgets that path once there: PublicOnly may send the user on too, to the same place).
 */
export function LoginRoute() {
  const navigate = useNavigate();
  const session = useSession();
  const home = () => void navigate(peekReturnPath() ?? '/', { replace: true });
  return (
    <>
      <LoginForm onDone={(agreed) => agreed && home()} />
      {session.isLoggedIn && !session.agreeTerm && (
        <Suspense fallback={null}>
          <TermsDialog onAgreed={home} />
        </Suspense>
      )}
    </>
  );
}
