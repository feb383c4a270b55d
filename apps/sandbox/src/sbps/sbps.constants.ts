/**
 * The sandbox merchant and the SBPS codes both sides know (ADR 0050, payments and billing,
 * reference/providers.md §5). Tenpo reads the same values from its config defaults.
 */
export const SBPS_SANDBOX_MERCHANT = {
  merchantId: '30132',
  serviceId: '103',
  /** Exactly 40 ASCII characters, as SBPS issues them. */
  hashKey: 'tenposandboxhashkey000000000000000000000',
  /** Basic user of the XML API: merchant_id + service_id. */
  basicId: '30132103',
  /** Basic password of the XML API: the hash key. */
  basicPassword: 'tenposandboxhashkey000000000000000000000',
  /** 3DES-CBC key (24 bytes) and IV (8 bytes) for `encrypted_flg=1`. */
  tripleDesKey: 'tenposandbox3deskey00000',
  tripleDesIv: 'tenpo-iv',
} as const;

export type SbpsMerchant = typeof SBPS_SANDBOX_MERCHANT;

/**
 * 8-digit codes: method (3: 101 credit, 999 common) + type (2) + item (3). Where SBPS's item code
 * is not public the sandbox uses 000 (contract §2).
 */
export const ERR = {
  missing: '99903000',
  length: '99905000',
  value: '99907000',
  hash: '99909000',
  expired: '99910000',
  merchant: '99914000',
  customer: '99995000',
  duplicateOrder: '99996000',
  token: '10107040',
  declined: '10122000',
  wrongCard: '10127000',
  merchantRefused: '99990001',
  /**
   * Sales (ST02-00201) of an authorisation that was not committed (ST02-00101). SBPS's own code
   * for this is not public: 10110999 is a credit-method NG recorded from real SBPS (ADR 0058,
   * UNCONFIRMED as to its meaning).
   */
  notCommitted: '10110999',
  system: '99990000',
} as const;

/** The token script's 5-digit codes: type (2) + field (3: 003 number, 004 expiry, 005 CVV). */
export const TOKEN_ERR = {
  numberMissing: '03003',
  numberLength: '05003',
  numberLuhn: '07003',
  expiryMissing: '03004',
  expiryFormat: '06004',
  expiryPast: '07004',
  cvvMissing: '03005',
  cvvFormat: '05005',
  merchant: '14000',
  system: '99999',
} as const;

export type CardBrand = 'V' | 'M' | 'J' | 'A' | 'D' | 'X';

/** What a charge on a card answers (contract §2 test cards). */
export type CardOutcome = 'ok' | 'declined' | 'wrong';

/** Registration is refused only for the wrong-expiry card; the declining card registers fine. */
export function cardOutcome(number: string): CardOutcome {
  if (number === '4000000000000002') return 'declined';
  if (number === '4000000000000069') return 'wrong';
  return 'ok';
}

/** One letter as SBPS sends it, by number prefix. */
export function cardBrand(number: string): CardBrand {
  if (number.startsWith('4')) return 'V';
  const two = Number(number.slice(0, 2));
  const four = Number(number.slice(0, 4));
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'M';
  if (two === 35) return 'J';
  if (two === 34 || two === 37) return 'A';
  if (two === 36 || two === 30) return 'D';
  return 'X';
}

export const BRAND_NAMES: Record<CardBrand, string> = {
  V: 'VISA',
  M: 'Mastercard',
  J: 'JCB',
  A: 'American Express',
  D: 'Diners Club',
  X: 'その他',
};

/** Card company codes of the sandbox (SBPS's real values are not public). */
export const COMPANY_CODES: Record<CardBrand, string> = {
  V: '10001',
  M: '10002',
  J: '10003',
  A: '10004',
  D: '10005',
  X: '10009',
};

export function luhnOk(number: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = number.length - 1; i >= 0; i--) {
    let d = Number(number[i]);
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

export const maskCard = (number: string): string =>
  '*'.repeat(Math.max(0, number.length - 4)) + number.slice(-4);

/** The demo customers the sandbox starts with; Tenpo's demo seed stores what they show. */
export type SandboxDemoCard = {
  custCode: string;
  brand: CardBrand;
  masked: string;
  /** YYYYMM. */
  expiration: string;
};

export const demoCustomerCards: readonly {
  custCode: string;
  number: string;
  expiration: string;
}[] = [
  { custCode: 'tenpo-demo-shop', number: '4111111111111111', expiration: '203012' },
  // Every charge on this card is declined (10122000): the payment-failed demo.
  { custCode: 'tenpo-demo-payfail', number: '4000000000000002', expiration: '203012' },
];

export const sandboxDemoCards: readonly SandboxDemoCard[] = demoCustomerCards.map((c) => ({
  custCode: c.custCode,
  brand: cardBrand(c.number),
  masked: maskCard(c.number),
  expiration: c.expiration,
}));
