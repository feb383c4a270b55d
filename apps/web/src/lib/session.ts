import { ROLE, type LoginResponseData, type User } from '@tenpo/domain';
import { apiRaw, exclusive, setUnauthorizedHandler } from './api-client';
import { withLoading } from './loading';
import { navigateTo } from './navigation';
import { readUserIds, storage } from './storage';
import { createStore, useStore } from './store';

/** Auth state of spec 1 §3. */
export type Session = {
  isLoggedIn: boolean;
  /** The token this tab received; compared with local storage to spot a stale session. */
  token: string | null;
  user: User | null;
  email: string | null;
  connectGMB: boolean;
  agreeTerm: boolean;
};

const signedOut: Session = {
  isLoggedIn: false,
  token: null,
  user: null,
  email: null,
  connectGMB: false,
  agreeTerm: false,
};

export const sessionStore = createStore<Session>(signedOut);
export const useSession = (): Session => useStore(sessionStore);

export const isAccountManager = (u: Pick<User, 'role'> | null): boolean =>
  u !== null && (u.role === ROLE.agency || u.role === ROLE.manager);

/** Agency, manager and group-leader users see the store selector and the account switch. */
export const isMultiStoreUser = (u: Pick<User, 'role' | 'is_leader'> | null): boolean =>
  u !== null && (isAccountManager(u) || u.is_leader);

/** Stores what a login or a rotation answered. */
export const applyLogin = (d: LoginResponseData): void => {
  storage.set('token', d.token);
  sessionStore.set({
    isLoggedIn: true,
    token: d.token,
    user: d.user,
    email: d.user.email,
    connectGMB: d.connect_GMB,
    agreeTerm: d.user.agreed_terms === 1,
  });
  reloadLogo();
};

export const setUser = (user: User): void => {
  sessionStore.set((s) => ({ ...s, user, email: user.email, agreeTerm: user.agreed_terms === 1 }));
  reloadLogo();
};

/**
 * The side bar logo (spec 1 §4 selected-store role): a manager or an agency with a selected
 * store shows that store's agency logo (kept in `userLogo` when the store was chosen); every
 * other user shows their own.
 */
export const reloadLogo = (): void => {
  const user = sessionStore.get().user;
  if (!user) return;
  if (isAccountManager(user) && readUserIds().length > 0) return;
  if (user.logo_url) storage.set('userLogo', user.logo_url);
  else storage.remove('userLogo');
  logoVersion.set((n) => n + 1);
};

/** Bumped whenever the stored logo may have changed, so the side bar re-reads it. */
export const logoVersion = createStore(0);

/** Forgets the session, the selected store ids and the stored logo (spec 1 §4 logout). */
export const clearSession = (): void => {
  storage.remove('token');
  storage.remove('userIds');
  storage.remove('userRole');
  storage.remove('userLogo');
  sessionStore.set(signedOut);
  logoVersion.set((n) => n + 1);
};

let rotating: Promise<boolean> | null = null;

/**
 * Rotates the session token (GET /refresh-token). Calls made meanwhile wait for the new token.
 * Concurrent callers share one rotation. Resolves false when the session is gone.
 */
export const refreshSession = (): Promise<boolean> => {
  if (rotating) return rotating;
  rotating = exclusive(async () => {
    if (!storage.get('token')) return false;
    try {
      const r = await apiRaw<LoginResponseData>('/refresh-token', { noAuthRedirect: true });
      applyLogin(r.data);
      return true;
    } catch {
      return false;
    }
  }).finally(() => {
    rotating = null;
  });
  return rotating;
};

/** Logout of spec 1 §4: loading on, call logout, then clear everything and go to /login. */
export const logout = async (): Promise<void> => {
  await withLoading(async () => {
    try {
      await exclusive(() => apiRaw('/logout', { noAuthRedirect: true }));
    } catch {
      // Signed out locally whatever the server said.
    }
  });
  clearSession();
  navigateTo('/login', { replace: true });
};

/** Any 401 outside the login page logs out and goes to /login (spec 1 §8). */
setUnauthorizedHandler(() => {
  clearSession();
  navigateTo('/login', { replace: true });
});

/** The token in local storage differs from the one this tab holds: another login happened. */
export const sessionIsStale = (): boolean => {
  const s = sessionStore.get();
  return s.isLoggedIn && s.token !== null && storage.get('token') !== s.token;
};
