import { useState } from 'react';
import { notifications } from '@mantine/notifications';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { errorLines } from '@/lib/api-client';
import { TOAST_MS } from '@/lib/timing';

/**
 * A selector's pending choice and its submit (the plan and the method): the call's answer
 * becomes the cached selection, a toast says so, a refusal shows its lines in the form.
 */
export function useChoice<T>(selectedKey: QueryKey, fallbackMessage: string) {
  const qc = useQueryClient();
  const [value, setValue] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [lines, setLines] = useState<string[] | null>(null);

  const submit = async (call: () => Promise<{ data: T; message?: string }>) => {
    setBusy(true);
    setLines(null);
    try {
      const r = await call();
      qc.setQueryData(selectedKey, r.data);
      setValue(null);
      notifications.show({
        color: 'teal',
        message: r.message ?? fallbackMessage,
        autoClose: TOAST_MS,
      });
    } catch (e) {
      setLines(errorLines(e));
    } finally {
      setBusy(false);
    }
  };

  return { value, setValue, busy, lines, submit };
}
