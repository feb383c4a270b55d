import type { PurchaseForm } from '@tenpo/domain';

// Set while the browser leaves for the provider's hosted page: the leave alert must not stop
// the payment it asked for.
let leavingToPay = false;
export const isLeavingToPay = (): boolean => leavingToPay;
// Back from the provider's page (the browser's back button restores this page from its cache):
// the page is ours again, and so is its leave alert.
window.addEventListener('pageshow', () => {
  leavingToPay = false;
});

/**
 * Posts the signed purchase request (A01-1) to the provider's hosted card page, as SBPS's
 * link type wants: a browser form POST, Shift_JIS, the fields in their definition order (the
 * hash is over that order). The page is left.
 */
export const submitPurchaseForm = (p: PurchaseForm, doc: Document = document): HTMLFormElement => {
  const form = doc.createElement('form');
  form.method = 'post';
  form.action = p.action;
  form.acceptCharset = 'Shift_JIS';
  form.hidden = true;
  for (const f of p.fields) {
    const input = doc.createElement('input');
    input.type = 'hidden';
    input.name = f.name;
    input.value = f.value;
    form.appendChild(input);
  }
  doc.body.appendChild(form);
  leavingToPay = true;
  form.submit();
  return form;
};

/**
 * Sends the browser to the card issuer's 3-D Secure challenge (ADR 0059): leaving on purpose, so
 * the leave alert stays quiet. The issuer sends it back to the card screen with `?tds=…`.
 */
export const leaveToIssuer = (
  url: string,
  loc: Pick<Location, 'assign'> = window.location,
): void => {
  leavingToPay = true;
  loc.assign(url);
};

/** The card screens the issuer may send the browser back to. */
export const CARD_SCREENS = ['/register-payment', '/change-payment-method'] as const;
export type CardScreen = (typeof CARD_SCREENS)[number];
export const cardScreenOf = (pathname: string): CardScreen =>
  (CARD_SCREENS as readonly string[]).includes(pathname)
    ? (pathname as CardScreen)
    : '/change-payment-method';

/**
 * The issuer's return (`?tds=<sealed state>&tracking_id=…`), taken off the address at once so a
 * reload does not send it twice; null when this is not a return.
 */
export const takeTdsReturn = (
  w: Pick<Window, 'location' | 'history'> = window,
): { state: string; trackingId: string } | null => {
  const url = new URL(w.location.href);
  const state = url.searchParams.get('tds');
  const trackingId = url.searchParams.get('tracking_id');
  if (!state && !trackingId) return null;
  url.searchParams.delete('tds');
  url.searchParams.delete('tracking_id');
  w.history.replaceState(w.history.state, '', `${url.pathname}${url.search}${url.hash}`);
  return state && trackingId
    ? { state, trackingId }
    : { state: state ?? '', trackingId: trackingId ?? '' };
};
