import { useEffect } from 'react';
import { AuthCard } from '../components/layout/auth-card';
import { LoginForm } from '../features/auth/components/login-form';
import { ja } from '../i18n/ja';
import { pageTitle, useBrandTitle } from '../lib/branding';

/**
 * /login's first render, before the router and the rest of the app have loaded (ADR 0017): the
 * same card and form as the /login route. Signing in (or any move from here) starts the app,
 * which then decides as the /login route does: home, or the terms dialog.
 */
export function LoginEntry({ onSignedIn }: { onSignedIn: () => void }) {
  const brand = useBrandTitle();
  useEffect(() => {
    document.title = pageTitle(ja.screens.login.title, brand);
  }, [brand]);
  return (
    <AuthCard>
      <LoginForm onDone={onSignedIn} />
    </AuthCard>
  );
}
