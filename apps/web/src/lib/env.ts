// The only reader of import.meta.env (eslint enforces it).

/** Fallback API key for `vite dev`, matching the API's development default. */
const DEV_API_KEY = 'tenpo-dev-key';

export const isDev: boolean = import.meta.env.DEV;

/** The server injects `<meta name="tenpo-api-key">` into index.html when it serves it. */
export const apiKey = (): string =>
  document.querySelector<HTMLMetaElement>('meta[name="tenpo-api-key"]')?.content || DEV_API_KEY;

export const API_BASE = '/api';

/** The help site linked when the page names none (`vite dev`, tests): the API's HELP_URL default. */
export const DEFAULT_HELP_URL = 'https://help.tenpo.example/';

/**
 * The external help site of the account menu and the plan selector (spec 1 §1): the server's
 * HELP_URL, injected into index.html as `<meta name="tenpo-help-url">`.
 */
export const helpUrl = (): string =>
  document.querySelector<HTMLMetaElement>('meta[name="tenpo-help-url"]')?.content ||
  DEFAULT_HELP_URL;
