import { useEffect, useId, useRef } from 'react';
import { useBlocker } from 'react-router';
import { sessionStore } from '@/lib/session';
import { createStore, useStore } from '@/lib/store';

/** One form's wish to be asked about before it is left. */
type Guard = {
  message: string;
  leaving: { current: boolean };
  signedIn: boolean;
};

/** The forms on screen that hold unsaved changes, by the id of the hook that registered them. */
const guards = createStore<ReadonlyMap<string, Guard>>(new Map());

/**
 * Asks before a changed form is left (issue 23 item 3): the browser's own prompt on reload,
 * close or a move to another site, and a confirm with `message` on a move within the app.
 *
 * On a signed-in screen (the default) a move to /login, and any move once the session is gone,
 * are let through: the session ended, and the form's own draft (if it keeps one) is what brings
 * the work back. A public form (`signedIn: false`) asks on every move. `leaving.current` set to
 * true lets the next move through (after a successful submit that navigates).
 *
 * A router takes one blocker at a time, and a screen may hold several forms (/basic-information
 * has three): each form only registers here, and `LeaveGuardHost` (once, in the root) asks.
 */
export function useLeaveGuard(
  dirty: boolean,
  message: string,
  opts: { leaving?: { current: boolean }; signedIn?: boolean } = {},
): void {
  const id = useId();
  const own = useRef(false);
  const leaving = opts.leaving ?? own;
  const signedIn = opts.signedIn ?? true;
  useEffect(() => {
    if (!dirty) return;
    guards.set((m) => new Map(m).set(id, { message, leaving, signedIn }));
    return () =>
      guards.set((m) => {
        const next = new Map(m);
        next.delete(id);
        return next;
      });
  }, [dirty, id, message, leaving, signedIn]);
}

/** The guards that still want to be asked (a form that is being left on purpose does not). */
const active = (): Guard[] => [...guards.get().values()].filter((g) => !g.leaving.current);

/** The one blocker of the app, asking for every form registered with `useLeaveGuard`. */
export function LeaveGuardHost(): null {
  const any = useStore(guards).size > 0;
  useEffect(() => {
    if (!any) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (active().length === 0) return;
      e.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [any]);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => {
    if (currentLocation.pathname === nextLocation.pathname) return false;
    const session = sessionStore.get().isLoggedIn && nextLocation.pathname !== '/login';
    return active().some((g) => !g.signedIn || session);
  });
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    const message = active()[0]?.message ?? '';
    if (window.confirm(message)) blocker.proceed();
    else blocker.reset();
  }, [blocker]);
  return null;
}
