import { useCallback, useEffect, useRef, useState } from 'react';

/** How long typing pauses before the draft is written (issue 23 item 3). */
export const DRAFT_SAVE_MS = 500;

const PREFIX = 'tenpo.postDraft';

/** One draft per signed-in user and set of selected stores. */
export const draftKey = (userId: number, storeIds: readonly number[]): string =>
  `${PREFIX}:${userId}:${[...storeIds].sort((a, b) => a - b).join(',')}`;

export const readDraft = <T>(key: string): T | null => {
  try {
    const raw = localStorage.getItem(key);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as { data?: T };
    return parsed.data ?? null;
  } catch {
    return null;
  }
};

export const writeDraft = <T>(key: string, data: T): void => {
  try {
    localStorage.setItem(key, JSON.stringify({ savedAt: new Date().toISOString(), data }));
  } catch {
    // A full or blocked storage keeps no draft; the form still works.
  }
};

export const removeDraft = (key: string): void => {
  try {
    localStorage.removeItem(key);
  } catch {
    // nothing to do
  }
};

/**
 * Keeps a form's `snapshot` in local storage under `key` while `changed` (debounced; written at
 * once when the page hides or the form unmounts), and removes it when the form is back to its
 * start. `restored` is the draft found when the form opened. `discard` forgets the draft (the
 * user's choice); `finish` forgets it and stops saving (the post was sent).
 */
export function usePostDraft<T>(
  key: string | null,
  snapshot: T,
  changed: boolean,
  delayMs = DRAFT_SAVE_MS,
) {
  const [restored, setRestored] = useState<T | null>(() => (key ? readDraft<T>(key) : null));
  // undefined: nothing to write; null: remove the draft; else the draft to write.
  const pending = useRef<T | null | undefined>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const stopped = useRef(false);

  const flush = useCallback(() => {
    clearTimeout(timer.current);
    if (!key || stopped.current || pending.current === undefined) return;
    if (pending.current === null) removeDraft(key);
    else writeDraft(key, pending.current);
    pending.current = undefined;
  }, [key]);

  const json = JSON.stringify(snapshot);
  useEffect(() => {
    if (!key || stopped.current) return;
    pending.current = changed ? (JSON.parse(json) as T) : null;
    clearTimeout(timer.current);
    timer.current = setTimeout(flush, delayMs);
  }, [key, json, changed, delayMs, flush]);

  useEffect(() => {
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [flush]);

  const discard = useCallback(() => {
    clearTimeout(timer.current);
    pending.current = undefined;
    if (key) removeDraft(key);
    setRestored(null);
  }, [key]);

  const finish = useCallback(() => {
    stopped.current = true;
    discard();
  }, [discard]);

  return { restored, discard, finish };
}
