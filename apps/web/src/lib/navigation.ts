type Navigate = (to: string, opts?: { replace?: boolean }) => void;

let navigator: Navigate = (to, opts) => {
  if (opts?.replace) window.location.replace(to);
  else window.location.assign(to);
};

/** The router registers itself so that code outside components (a 401, logout) can navigate. */
export const setNavigator = (n: Navigate): void => {
  navigator = n;
};

let readPath = (): string => `${window.location.pathname}${window.location.search}`;
/** The router registers where it is (a memory router's location is not the window's). */
export const setPathReader = (r: () => string): void => {
  readPath = r;
};
/** The app's current path and query. */
export const currentAppPath = (): string => readPath();

export const navigateTo: Navigate = (to, opts) => navigator(to, opts);

/**
 * Whole-page moves: to a provider's consent page, or to a screen with a fresh load (spec 1 §2:
 * "goes to /connect-account and reloads"). One object, so tests can watch the moves.
 */
export const browser = {
  assign: (url: string): void => window.location.assign(url),
};
