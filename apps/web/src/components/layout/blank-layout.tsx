import { Outlet } from 'react-router';
import { AuthCard } from './auth-card';

/** The auth pages' layout route. */
export function BlankLayout() {
  return (
    <AuthCard>
      <Outlet />
    </AuthCard>
  );
}
