/**
 * Where a user whose session ended was (issue 23 item 3): kept in session storage while they
 * sign in again, so that the login brings them back there instead of to the home screen. Only
 * a path of this site: it starts with one `/` (never `//` or `/\`, which a browser reads as
 * another host), and never /login itself.
 */
const KEY = 'tenpo.returnTo';

export const isSafeReturnPath = (p: unknown): p is string =>
  typeof p === 'string' &&
  p.startsWith('/') &&
  !p.startsWith('//') &&
  !p.startsWith('/\\') &&
  ![...p].some((c) => c.charCodeAt(0) < 0x20) &&
  p !== '/login' &&
  !p.startsWith('/login?') &&
  !p.startsWith('/login#');

export const rememberReturnPath = (path: string): void => {
  if (!isSafeReturnPath(path)) return;
  try {
    sessionStorage.setItem(KEY, path);
  } catch {
    // no storage: the login goes home
  }
};

export const forgetReturnPath = (): void => {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // nothing to do
  }
};

/** The remembered path, left in place (for a render, which may run twice). */
export const peekReturnPath = (): string | null => {
  try {
    const p = sessionStorage.getItem(KEY);
    return isSafeReturnPath(p) ? p : null;
  } catch {
    return null;
  }
};

/** The remembered path (once: it is forgotten as it is read), or null. */
export const takeReturnPath = (): string | null => {
  let p: string | null;
  try {
    p = sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
  forgetReturnPath();
  return isSafeReturnPath(p) ? p : null;
};
