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
