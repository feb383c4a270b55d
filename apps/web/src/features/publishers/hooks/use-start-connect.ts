import { useState } from 'react';
import type { PublisherKey } from '@tenpo/domain';
import { ApiError } from '@/lib/api-client';
import { withLoading } from '@/lib/loading';
import { browser, navigateTo } from '@/lib/navigation';
import { clearSession, refreshSession, sessionIsStale } from '@/lib/session';
import { connectUrlCall } from '../api/publishers-api';

/**
 * The connect flow of spec 1 §2: check (this tab still holds the live session), refresh the
 * session, request the connect URL, then the browser navigates to it. Resolves once the
 * browser is on its way; a failure rejects with the API's error.
 */
export function useStartConnect(storeId: number | null) {
  const [busy, setBusy] = useState<PublisherKey | null>(null);
  const start = async (key: PublisherKey): Promise<void> => {
    if (storeId === null || busy !== null) return;
    // Another login replaced this tab's session: the shell shows its warning; do nothing here.
    if (sessionIsStale()) return;
    setBusy(key);
    try {
      await withLoading(async () => {
        const rotation = await refreshSession();
        if (rotation === 'gone') {
          clearSession();
          navigateTo('/login', { replace: true });
          return;
        }
        // No answer: not a logout; the connect fails with the generic message.
        if (rotation === 'unreachable') throw new ApiError(0, null);
        browser.assign(await connectUrlCall(key, storeId));
      });
    } finally {
      setBusy(null);
    }
  };
  return { start, busy };
}
