import { Navigate, useLocation } from 'react-router';

/**
 * A guard's redirect: `<Navigate replace>` once per location. React Router's `Navigate` moves in
 * an effect that runs again only when its target changes, so a layout that stays mounted while
 * the user moves (Back while the app was already on its way to /login) kept the same element,
 * never moved a second time and left a blank page. Keyed by the location, each location the
 * guard refuses gets its own move.
 */
export function Redirect({ to }: { to: string }) {
  const { key } = useLocation();
  return <Navigate key={key} to={to} replace />;
}
