import { useEffect, useRef } from 'react';
import { NavigationProgress, nprogress } from '@mantine/nprogress';
import { notifications } from '@mantine/notifications';
import { Outlet, useNavigate, useNavigation } from 'react-router';
import { i18n } from '../i18n';
import { setChunkReporter } from '../lib/chunk';
import { setNavigator } from '../lib/navigation';

/** The progress bar starts only if a navigation takes longer than this (spec 1 §9). */
export const PROGRESS_DELAY_MS = 100;

function PageProgress() {
  const navigation = useNavigation();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const started = useRef(false);
  const busy = navigation.state !== 'idle';
  useEffect(() => {
    if (busy) {
      timer.current = setTimeout(() => {
        started.current = true;
        nprogress.start();
      }, PROGRESS_DELAY_MS);
    }
    return () => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
      if (started.current) {
        started.current = false;
        nprogress.complete();
      }
    };
  }, [busy]);
  return <NavigationProgress aria-label="page loading" />;
}

/** Wraps every route: navigator registration, the progress bar, chunk-load reports. */
export function Root() {
  const navigate = useNavigate();
  useEffect(() => {
    setNavigator((to, opts) => void navigate(to, { replace: opts?.replace ?? false }));
    setChunkReporter((e) => {
      notifications.show({
        color: 'red',
        message: e.timedOut
          ? i18n.t('actions.errors.chunkLoad')
          : i18n.t('actions.errors.chunkFailed'),
        autoClose: false,
      });
    });
  }, [navigate]);
  return (
    <>
      <PageProgress />
      <Outlet />
    </>
  );
}
