import { useEffect, useState } from 'react';
import { errorLines } from '@/lib/api-client';
import { ERROR_ALERT_MS } from '@/lib/timing';
import { ErrorAlert } from './error-alert';

/**
 * An error alert that goes away on its own after 2 s (spec 1 §8: Google connect and Facebook
 * page failures): the server's errors, or the generic 500 message. It follows the error object
 * itself (a query's or mutation's error, a caught one kept in state), so each new failure shows
 * it again and a re-render never restarts it.
 */
export function TimedErrorAlert({ error }: { error: unknown }) {
  const shown = useTimedError(error);
  return <ErrorAlert lines={shown ? errorLines(shown) : null} />;
}

/** The error while its 2 s alert lasts, then null: for a screen that says it elsewhere after. */
export function useTimedError(error: unknown): unknown {
  const [shown, setShown] = useState<unknown>(error);
  useEffect(() => {
    setShown(error);
    if (!error) return;
    const timer = setTimeout(() => setShown(null), ERROR_ALERT_MS);
    return () => clearTimeout(timer);
  }, [error]);
  return shown;
}
