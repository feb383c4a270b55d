import { useContext, useState, type ReactNode } from 'react';
import { QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../lib/query-client';

let shared: ReturnType<typeof createQueryClient> | null = null;

/**
 * The tab's one query client, for the routes that query: the shell and /register-account. It
 * loads with them, so the other public pages never load TanStack Query (ADR 0017). A test that
 * renders the app with a client of its own keeps it.
 */
export function AppQueryProvider({ children }: { children: ReactNode }) {
  const outer = useContext(QueryClientContext);
  const [client] = useState(() => outer ?? (shared ??= createQueryClient()));
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
