import '@mantine/nprogress/styles.css';
import { useEffect, useRef } from 'react';
import { NavigationProgress, nprogress } from '@mantine/nprogress';
import { useNavigation } from 'react-router';
import { ja } from '../i18n/ja';

/** The progress bar starts only if a navigation takes longer than this (spec 1 §9). */
export const PROGRESS_DELAY_MS = 100;

/** The navigation progress bar: loaded with the first lazily loaded screen (ADR 0017). */
export function PageProgress() {
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
  return <NavigationProgress aria-label={ja.a11y.pageLoading} />;
}
