import { useEffect, useState } from 'react';
import { Center, Loader } from '@mantine/core';
import { Navigate, Outlet, useLocation } from 'react-router';
import { clearSession, refreshSession, useSession } from '../lib/session';
import { storage } from '../lib/storage';

/**
 * Public routes send a signed-in user home (spec 1 §2). A stored token without a session in
 * this tab is tried first; the terms dialog keeps a user who has not agreed on /login.
 */
export function PublicOnly() {
  const session = useSession();
  const { pathname } = useLocation();
  const [checking, setChecking] = useState(
    () => !session.isLoggedIn && storage.get('token') !== null,
  );

  useEffect(() => {
    if (!checking) return;
    let live = true;
    void refreshSession().then((ok) => {
      if (!live) return;
      if (!ok) clearSession();
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
  if (session.isLoggedIn) {
    if (session.agreeTerm) return <Navigate to="/" replace />;
    if (pathname !== '/login') return <Navigate to="/login" replace />;
  }
  return <Outlet />;
}
