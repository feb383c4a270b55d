type Navigate = (to: string, opts?: { replace?: boolean }) => void;

let navigator: Navigate = (to, opts) => {
  if (opts?.replace) window.location.replace(to);
  else window.location.assign(to);
};

/** The router registers itself so that code outside components (a 401, logout) can navigate. */
export const setNavigator = (n: Navigate): void => {
  navigator = n;
};

export const navigateTo: Navigate = (to, opts) => navigator(to, opts);

/**
 * Whole-page moves: to a provider's consent page, or to a screen with a fresh load (spec 1 §2:
 * "goes to /connect-account and reloads"). One object, so tests can watch the moves.
 */
export const browser = {
  assign: (url: string): void => window.location.assign(url),
};
