import { Suspense, lazy, startTransition, useEffect, useState } from 'react';
import { Outlet, useLocation, useSearchParams } from 'react-router';
import { verifyRegisterTokenCall } from '../features/auth/api/auth-api';
import { clearSession, logout, refreshSession, useSession } from '../lib/session';
import { peekReturnPath } from '../lib/return-path';
import { storage } from '../lib/storage';
import { FullLoader } from '../components/ui/full-loader';
import { Redirect } from './redirect';

// The warning is rare on a public page, and a modal brings Mantine's focus trap, portal and
// transitions: it loads when it is shown, not with /login (ADR 0017).
const LoginErrorDialog = lazy(() =>
  import('../components/ui/login-error-dialog').then((m) => ({ default: m.LoginErrorDialog })),
);

const sameEmail = (a: string, b: string | null): boolean =>
  b !== null && a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The e-mail address a mailed account link is for: a reset link carries it in its query, a
 * registration link's token names it once verified. `null`: the page is no such link (or the
 * link names nobody: a bad token is a dead link, not another account); `undefined`: still asking.
 * Asked only while someone is signed in (`active`); the pages themselves read the link otherwise.
 */
function useLinkEmail(active: boolean): string | null | undefined {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const token = pathname === '/register-account' ? params.get('token') : null;
  const [verified, setVerified] = useState<{ token: string; email: string | null } | null>(null);
  const ask = active && token !== null;
  useEffect(() => {
    if (!ask || token === null) return;
    let live = true;
    verifyRegisterTokenCall(token).then(
      (r) => live && setVerified({ token, email: r.data.email }),
      () => live && setVerified({ token, email: null }),
    );
    return () => {
      live = false;
    };
  }, [ask, token]);
  if (pathname === '/reset-password') return params.get('email') || null;
  if (!ask) return null;
  return verified?.token === token ? verified.email : undefined;
}

/**
 * Public routes send a signed-in user home (spec 1 §2; spec 3 §4). A tab that arrives without a
 * session of its own while storage holds a token (the browser is signed in: another tab, a
 * reload, a typed address) restores that session first, and then goes home like any signed-in
 * user: it is this browser's own account, nobody else's. The login-error warning (「すでに別の
 * アカウントで…」), whose confirm logs out, is kept for a mailed link that names another
 * account than the signed-in one: a reset or registration link for a different e-mail (ADR 0070).
 * The terms dialog keeps a user who has not agreed on /login.
 */
export function PublicOnly() {
  const session = useSession();
  const { pathname } = useLocation();
  const [checking, setChecking] = useState(
    () => !session.isLoggedIn && storage.get('token') !== null,
  );
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
      // Unreachable: the page, with the token kept for when the server answers again.
      if (r === 'gone') clearSession();
      // The first screen renders in slices (a transition), not one long task (ADR 0079).
      startTransition(() => setChecking(false));
    });
    return () => {
      live = false;
    };
  }, [checking]);

  const linkEmail = useLinkEmail(signedIn && !checking);

  if (checking || (signedIn && linkEmail === undefined)) return <FullLoader />;
  const otherAccount = signedIn && !!linkEmail && !sameEmail(linkEmail, session.email);
  if (signedIn && !otherAccount) {
    // Back to the page a session that ended was on (issue 23 item 3), else home.
    if (session.agreeTerm) {
      return <Redirect to={(pathname === '/login' && peekReturnPath()) || '/'} />;
    }
    if (pathname !== '/login') return <Redirect to="/login" />;
  }
  // One tree either way: the page under the warning stays mounted once it is confirmed.
  return (
    <>
      <Outlet />
      {otherAccount && (
        <Suspense fallback={null}>
          <LoginErrorDialog opened onConfirm={() => void logout({ stay: true })} />
        </Suspense>
      )}
    </>
  );
}
