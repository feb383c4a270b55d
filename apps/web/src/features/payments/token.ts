import { paymentJa } from '@tenpo/domain';
import type { PaymentProvider } from './api/payments-api';

/**
 * The card provider's token script (SBPS `com_sbps_system.generateToken`, providers.md §5): the
 * card number goes from the browser to the provider, which answers a one-time token pair; only
 * that pair goes to Tenpo.
 */

export type TokenRequest = {
  merchantId: string;
  serviceId: string;
  ccNumber: string;
  /** YYYYMM. */
  ccExpiration: string;
  securityCode: string;
};
export type TokenResult =
  | {
      result: 'OK';
      tokenResponse: {
        token: string;
        tokenKey: string;
        maskedCcNumber?: string;
        cardBrandCode?: string;
      };
    }
  | { result: 'NG'; errorCode: string };

type SbpsSystem = {
  generateToken: (req: TokenRequest, callback: (r: TokenResult) => void) => void;
};

declare global {
  interface Window {
    com_sbps_system?: SbpsSystem;
  }
}

/** The token failed: the message to show, already chosen for the user. */
export class TokenError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
  ) {
    super(message);
    this.name = 'TokenError';
  }
}

// One load per script URL for the page's life: a second form on the page, or a second try,
// reuses it rather than injecting the script again.
const loads = new Map<string, Promise<SbpsSystem>>();

export const loadTokenScript = (url: string): Promise<SbpsSystem> => {
  // Already on the page (loaded before, by this module or the page itself).
  if (window.com_sbps_system) return Promise.resolve(window.com_sbps_system);
  const known = loads.get(url);
  if (known) return known;
  const p = new Promise<SbpsSystem>((resolve, reject) => {
    const s = document.createElement('script');
    s.src = url;
    s.async = true;
    s.dataset.tokenScript = 'sbps';
    s.onload = () => {
      if (window.com_sbps_system) resolve(window.com_sbps_system);
      else reject(new TokenError(paymentJa.tokenFailed, null));
    };
    s.onerror = () => reject(new TokenError(paymentJa.tokenFailed, null));
    document.head.appendChild(s);
  });
  // A failed load (the network) may be tried again with the next submit.
  p.catch(() => loads.delete(url));
  loads.set(url, p);
  return p;
};

/** Forgets the loads (tests). */
export const resetTokenScript = (): void => loads.clear();

/**
 * Token error codes are 2-digit type + 3-digit item (providers.md §5): items 003 number,
 * 004 expiry and 005 security code are the card the user typed; anything else is ours.
 */
const CARD_ITEMS = new Set(['003', '004', '005']);
export const tokenErrorMessage = (code: string): string =>
  CARD_ITEMS.has(code.slice(2)) ? paymentJa.cardInvalid : paymentJa.tokenFailed;

export type CardInput = { number: string; year: string; month: string; cvv: string };

/** Asks the provider for a token pair for the card typed. */
export const generateCardToken = async (
  provider: PaymentProvider,
  card: CardInput,
): Promise<{ token: string; tokenKey: string }> => {
  const sbps = await loadTokenScript(provider.token_script_url);
  const result = await new Promise<TokenResult>((resolve, reject) => {
    try {
      sbps.generateToken(
        {
          merchantId: provider.merchant_id,
          serviceId: provider.service_id,
          ccNumber: card.number.replace(/\D/g, ''),
          ccExpiration: `${card.year}${card.month}`,
          securityCode: card.cvv,
        },
        resolve,
      );
    } catch {
      reject(new TokenError(paymentJa.tokenFailed, null));
    }
  });
  if (result.result !== 'OK') {
    const code = result.errorCode ?? '';
    throw new TokenError(tokenErrorMessage(code), code || null);
  }
  return { token: result.tokenResponse.token, tokenKey: result.tokenResponse.tokenKey };
};
