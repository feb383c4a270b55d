import { useEffect, useState } from 'react';
import { ERROR_ALERT_MS } from '@/lib/timing';
import { ErrorAlert } from './error-alert';

/**
 * An error alert that goes away on its own after 2 s (spec 1 §8: Google connect and Facebook
 * page failures). Each new failure (a new `lines` array) shows it again.
 */
export function TimedErrorAlert({ lines }: { lines: string[] | null }) {
  const [shown, setShown] = useState<string[] | null>(lines);
  useEffect(() => {
    setShown(lines);
    if (!lines) return;
    const timer = setTimeout(() => setShown(null), ERROR_ALERT_MS);
    return () => clearTimeout(timer);
  }, [lines]);
  return <ErrorAlert lines={shown} />;
}
