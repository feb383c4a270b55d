// The only reader of import.meta.env (eslint enforces it).

/** Fallback API key for `vite dev`, matching the API's development default. */
const DEV_API_KEY = 'tenpo-dev-key';

export const isDev: boolean = import.meta.env.DEV;

/** The server injects `<meta name="tenpo-api-key">` into index.html when it serves it. */
export const apiKey = (): string =>
  document.querySelector<HTMLMetaElement>('meta[name="tenpo-api-key"]')?.content || DEV_API_KEY;

export const API_BASE = '/api';
