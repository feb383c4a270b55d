import { Suspense, lazy, useEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { i18n } from '../i18n';
import { chunkRequested, setChunkReporter } from '../lib/chunk';
import { setNavigator, setPathReader } from '../lib/navigation';
import { LeaveGuardHost } from '../lib/use-leave-guard';
import { useStore } from '../lib/store';

// Loaded with the first lazily loaded screen: /login never navigates before that (ADR 0017).
const PageProgress = lazy(() =>
  import('./page-progress').then((m) => ({ default: m.PageProgress })),
);

/**
 * Wraps every route: navigator registration, the progress bar, chunk-load reports, the one
 * blocker that asks before a changed form is left. (The
 * document title follows the router itself: app/document-title.ts.)
 */
export function Root() {
  const navigate = useNavigate();
  const later = useStore(chunkRequested);
  const location = useLocation();
  const here = useRef('');
  here.current = `${location.pathname}${location.search}`;
  useEffect(() => {
    setPathReader(() => here.current);
    setNavigator((to, opts) => void navigate(to, { replace: opts?.replace ?? false }));
    setChunkReporter((e) => {
      const message = e.timedOut
        ? i18n.t('actions.errors.chunkLoad')
        : i18n.t('actions.errors.chunkFailed');
      void import('@mantine/notifications').then(({ notifications }) =>
        notifications.show({ color: 'red', message, autoClose: false }),
      );
    });
  }, [navigate]);
  return (
    <>
      {later && (
        <Suspense fallback={null}>
          <PageProgress />
        </Suspense>
      )}
      <LeaveGuardHost />
      <Outlet />
    </>
  );
}
