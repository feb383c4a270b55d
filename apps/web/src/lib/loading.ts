import { createStore, useStore } from './store';

/** The global loading flag: the layouts show their loading overlay while it is on. */
const loading = createStore(0);

export const useGlobalLoading = (): boolean => useStore(loading) > 0;

export const withLoading = async <T>(fn: () => Promise<T>): Promise<T> => {
  loading.set((n) => n + 1);
  try {
    return await fn();
  } finally {
    loading.set((n) => Math.max(0, n - 1));
  }
};
