/** Display timings of spec 1 §9 and spec 3 §9. */

/** Toasts (success and error notifications). */
export const TOAST_MS = 2000;
/** Error alerts that close on their own (Google connect, Facebook page failures). */
export const ERROR_ALERT_MS = 2000;

/** A session check that got no answer (network, server restarting) is tried again after this. */
export const SESSION_RETRY_MS = 2000;

/** Card toasts (registered, removed) stay longer (spec 1 §9). */
export const CARD_TOAST_MS = 5000;
