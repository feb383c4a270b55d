import { useSyncExternalStore } from 'react';

/** A tiny observable value for state that lives outside React (session, selection, loading). */
export type Store<T> = {
  get: () => T;
  set: (next: T | ((prev: T) => T)) => void;
  subscribe: (l: () => void) => () => void;
};

export const createStore = <T>(initial: T): Store<T> => {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set: (next) => {
      value = typeof next === 'function' ? (next as (p: T) => T)(value) : next;
      for (const l of [...listeners]) l();
    },
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
};

export const useStore = <T>(s: Store<T>): T => useSyncExternalStore(s.subscribe, s.get, s.get);
