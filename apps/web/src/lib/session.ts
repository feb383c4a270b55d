import { ROLE, type LoginResponseData, type User } from '@tenpo/domain';
import { acrossTabs, ApiError, apiRaw, exclusive, setUnauthorizedHandler } from './api-client';
import { withLoading } from './loading';
import { currentAppPath, navigateTo } from './navigation';
import { forgetReturnPath, rememberReturnPath } from './return-path';
import { readUserIds, storage } from './storage';
import { createStore, useStore } from './store';

/** Auth state of spec 1 §3. */
export type Session = {
  isLoggedIn: boolean;
  /**
   * The token this tab last stored or adopted. The calls read local storage instead: the tabs
   * of a browser share one session there, and any of them may rotate it.
   */
  token: string | null;
  user: User | null;
  email: string | null;
  connectGMB: boolean;
  agreeTerm: boolean;
  /**
   * The stored token turned out to belong to another account than this tab's user (a login
   * in another tab): the shell shows the login-error warning (spec 1 §2).
   */
  otherAccount: boolean;
};

const signedOut: Session = {
  isLoggedIn: false,
  token: null,
  user: null,
  email: null,
  connectGMB: false,
  agreeTerm: false,
  otherAccount: false,
};

// Set by `logout` (the user chose to leave), cleared by a login: the login guard then does not
// remember the page for a return after the next login.
let signedOutOnPurpose = false;
export const endedByLogout = (): boolean => signedOutOnPurpose;

export const sessionStore = createStore<Session>(signedOut);
export const useSession = (): Session => useStore(sessionStore);

export const isAccountManager = (u: Pick<User, 'role'> | null): boolean =>
  u !== null && (u.role === ROLE.agency || u.role === ROLE.manager);

/** Agency, manager and group-leader users see the store selector and the account switch. */
export const isMultiStoreUser = (u: Pick<User, 'role' | 'is_leader'> | null): boolean =>
  u !== null && (isAccountManager(u) || u.is_leader);

/** Stores what a login or a rotation answered. */
export const applyLogin = (d: LoginResponseData): void => {
  signedOutOnPurpose = false;
  storage.set('token', d.token);
  sessionStore.set({
    isLoggedIn: true,
    token: d.token,
    user: d.user,
    email: d.user.email,
    connectGMB: d.connect_GMB,
    agreeTerm: d.user.agreed_terms === 1,
    otherAccount: false,
  });
  reloadLogo();
};

/**
 * Another tab stored `token`; `user` is whom it belongs to. The same user (a rotation or a
 * refresh in that tab) is simply followed; another account marks this tab's session stale.
 */
export const adoptStoredToken = (token: string, user: User): void => {
  const me = sessionStore.get();
  if (!me.isLoggedIn || !me.user) return;
  if (user.id !== me.user.id) {
    sessionStore.set((s) => ({ ...s, otherAccount: true }));
    return;
  }
  sessionStore.set((s) => ({ ...s, token }));
  setUser(user);
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

/**
 * What a rotation found: `ok` (a live session, now with a fresh token), `gone` (the server said
 * the session is over: 401), or `unreachable` (no answer: the network, a page being unloaded
 * while the call travelled, a server error). Only `gone` is a logout: an unreachable rotation
 * keeps the token, which the server still follows to its successor for a while (ADR 0012).
 */
export type Rotation = 'ok' | 'gone' | 'unreachable';

let rotating: Promise<Rotation> | null = null;

/**
 * Rotates the session token (GET /refresh-token). Calls made meanwhile wait for the new token;
 * concurrent callers share one rotation, and the tabs of the browser take turns (a Web Lock),
 * each rotating whatever token storage holds when its turn comes. A token that turns out to be
 * another account's (a login in another tab) is stored, since its old value is now revoked, but
 * not applied to this tab: it goes stale.
 */
export const refreshSession = (): Promise<Rotation> => {
  if (rotating) return rotating;
  rotating = exclusive(() =>
    acrossTabs(async (): Promise<Rotation> => {
      if (!storage.get('token')) return 'gone';
      try {
        const r = await apiRaw<LoginResponseData>('/refresh-token', { noAuthRedirect: true });
        // The token was removed while the rotation travelled (by hand, or a logout in another
        // tab): storing its successor would bring a signed-out browser back in.
        if (!storage.get('token')) return 'gone';
        const me = sessionStore.get().user;
        if (sessionStore.get().isLoggedIn && me && me.id !== r.data.user.id) {
          storage.set('token', r.data.token);
          sessionStore.set((s) => ({ ...s, otherAccount: true }));
          return 'ok';
        }
        applyLogin(r.data);
        return 'ok';
      } catch (e) {
        return e instanceof ApiError && e.status === 401 ? 'gone' : 'unreachable';
      }
    }),
  ).finally(() => {
    rotating = null;
  });
  return rotating;
};

/**
 * Logout of spec 1 §4: loading on, call logout, then clear everything and go to /login.
 * `stay` keeps the current page (the warning on a public page: the user is already there).
 */
export const logout = async ({ stay = false }: { stay?: boolean } = {}): Promise<void> => {
  // A chosen logout is no ended session: the next login goes home.
  signedOutOnPurpose = true;
  forgetReturnPath();
  await withLoading(async () => {
    try {
      await exclusive(() => apiRaw('/logout', { noAuthRedirect: true }));
    } catch {
      // Signed out locally whatever the server said.
    }
  });
  clearSession();
  if (!stay) navigateTo('/login', { replace: true });
};

/** Any 401 outside the login page logs out and goes to /login (spec 1 §8). */
setUnauthorizedHandler(() => {
  // The session ended under the user: the next login brings them back here (issue 23 item 3).
  rememberReturnPath(currentAppPath());
  clearSession();
  navigateTo('/login', { replace: true });
});

/**
 * This tab's session was replaced by another account's login. A token that merely differs
 * from the one this tab last saw is not stale: another tab of the same user rotated it.
 */
export const sessionIsStale = (): boolean => {
  const s = sessionStore.get();
  return s.isLoggedIn && s.otherAccount;
};

/** This tab believes it is signed in, but the token is gone from storage (removed elsewhere). */
export const tokenRemoved = (): boolean =>
  sessionStore.get().isLoggedIn && storage.get('token') === null;
