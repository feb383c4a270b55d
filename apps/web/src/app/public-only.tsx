import { Suspense, lazy, useEffect, useState } from 'react';
import { Center, Loader } from '@mantine/core';
import { Navigate, Outlet, useLocation } from 'react-router';
import { clearSession, logout, refreshSession, useSession } from '../lib/session';
import { storage } from '../lib/storage';

// The warning is rare on a public page, and a modal brings Mantine's focus trap, portal and
// transitions: it loads when it is shown, not with /login (ADR 0017).
const LoginErrorDialog = lazy(() =>
  import('../components/ui/login-error-dialog').then((m) => ({ default: m.LoginErrorDialog })),
);

/**
 * Public routes send a user signed in in this tab home (spec 1 §2); the terms dialog keeps a
 * user who has not agreed on /login. A tab that arrives here without a session while storage
 * holds a live token (the browser is signed in, in another tab or before a reload) shows the
 * login-error warning instead, whose confirm logs out (spec 3 §4): one browser, one account.
 */
export function PublicOnly() {
  const session = useSession();
  const { pathname } = useLocation();
  const [checking, setChecking] = useState(
    () => !session.isLoggedIn && storage.get('token') !== null,
  );
  const [warn, setWarn] = useState(false);
  // A session whose token is gone from storage is over (spec 1 §2: no token means Login);
  // counting it as signed in would send the user back to the app, which sends them here.
  const signedIn = session.isLoggedIn && storage.get('token') !== null;
  const orphan = session.isLoggedIn && !signedIn;
  useEffect(() => {
    if (orphan) clearSession();
  }, [orphan]);

  useEffect(() => {
    if (!checking) return;
    let live = true;
    void refreshSession().then((r) => {
      if (!live) return;
      if (r === 'ok') setWarn(true);
      // Unreachable: the login form, with the token kept for when the server answers again.
      else if (r === 'gone') clearSession();
      setChecking(false);
    });
    return () => {
      live = false;
    };
  }, [checking]);

  if (checking) {
    return (
      <Center mih="100vh">
        <Loader aria-label="loading" />
      </Center>
    );
  }
  if (warn) {
    return (
      <>
        <Outlet />
        <Suspense fallback={null}>
          <LoginErrorDialog
            opened
            onConfirm={() => {
              void logout({ stay: true }).then(() => setWarn(false));
            }}
          />
        </Suspense>
      </>
    );
  }
  if (signedIn) {
    if (session.agreeTerm) return <Navigate to="/" replace />;
    if (pathname !== '/login') return <Navigate to="/login" replace />;
  }
  return <Outlet />;
}
