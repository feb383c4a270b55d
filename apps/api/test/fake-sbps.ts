import type { Config } from '../src/config';
import type { Clock } from '../src/lib/clock';
import {
  createSbpsClient,
  SbpsUnavailable,
  type SbpsClient,
  type SbpsResult,
} from '../src/modules/payments/sbps.client';

/**
 * An SBPS behind the client interface, for the payment tests until the sandbox's own SBPS is
 * merged (then test/payments-sandbox.test.ts runs the same flows against it). The A01-1 form and
 * the A02-1 hash are the real client's (pure); the XML API calls act on an in-memory merchant:
 * customers by cust_code, transactions by order id (a second authorisation of an order id is
 * refused with 99996000 and the earlier tracking id, as the contract says of the sandbox, or
 * without it: `duplicateWithoutTracking`). Charges go authorise (ST01-00131) → commit
 * (ST02-00101) → sales (ST02-00201); sales of an uncommitted authorisation is refused.
 *
 * Tokens: `tok-<brand letter>-<last four>` registers a card; `tok-decline-…` registers a card
 * every charge of which is declined (10122000); `tok-used` answers 10107040; `tok-bad` 10127000.
 */
export type FakeTransaction = {
  trackingId: string;
  spsTransactionId: string;
  orderId: string;
  custCode: string;
  amount: number;
  status: 'authorised' | 'committed' | 'sold' | 'declined';
};

export type FakeSbps = SbpsClient & {
  customers: Map<string, { masked: string; expiration: string; brand: string; decline: boolean }>;
  transactions: FakeTransaction[];
  calls: string[];
  /** Every XML call throws SbpsUnavailable (a 5xx / time-out). */
  down: boolean;
  /** The next authorisation goes through at SBPS, but its answer is lost (a time-out). */
  loseNextAuthorisation: boolean;
  /** Milliseconds an authorisation takes (so that two workers overlap). */
  latencyMs: number;
  /** A refused duplicate order id names no earlier tracking id (as real NG answers carry none). */
  duplicateWithoutTracking: boolean;
  /** The next commit goes through at SBPS, but its answer is lost (the process dies). */
  loseNextCommit: boolean;
  /** The next sale goes through at SBPS, but its answer is lost. */
  loseNextSales: boolean;
  /** The next sale never reaches SBPS (the process dies between commit and sales). */
  dropNextSales: boolean;
  /** Each sale's `processingDatetime` as sent (undefined: none named). */
  salesDates: (string | undefined)[];
  /** The next authorisation is answered with this NG code (e.g. 10121000, the credit centre). */
  nextAuthorisationNg: string | null;
  sold: () => FakeTransaction[];
};

const ok = (extra: Partial<SbpsResult> = {}): SbpsResult => ({
  result: 'OK',
  errCode: '',
  ...extra,
});
const ng = (errCode: string, extra: Partial<SbpsResult> = {}): SbpsResult => ({
  result: 'NG',
  errCode,
  ...extra,
});

export function createFakeSbps(config: Config, clock: Clock): FakeSbps {
  const real = createSbpsClient(config.payments.sbps, clock, () => {
    throw new Error('the fake SBPS makes no HTTP call');
  });
  let seq = 0;
  const fake: FakeSbps = {
    customers: new Map(),
    transactions: [],
    calls: [],
    down: false,
    loseNextAuthorisation: false,
    latencyMs: 0,
    duplicateWithoutTracking: false,
    loseNextCommit: false,
    loseNextSales: false,
    dropNextSales: false,
    salesDates: [],
    nextAuthorisationNg: null,
    sold: () => fake.transactions.filter((t) => t.status === 'sold'),
    provider: real.provider,
    purchaseForm: (i) => real.purchaseForm(i),
    verifyResult: (f) => real.verifyResult(f),

    async registerCard(custCode, token, _tokenKey, update) {
      fake.calls.push(update ? 'MG02-00132' : 'MG02-00131');
      if (fake.down) throw new SbpsUnavailable('SBPS down');
      if (token === 'tok-used') return ng('10107040');
      if (token === 'tok-bad') return ng('10127000');
      if (fake.customers.has(custCode) !== update) return ng('99995000');
      const m = /^tok-(?:(decline)-)?([A-Z])-(\d{4})$/.exec(token);
      if (!m) return ng('99903000');
      fake.customers.set(custCode, {
        masked: `************${m[3]}`,
        expiration: '203012',
        brand: m[2] as string,
        decline: m[1] === 'decline',
      });
      return ok({ payMethodInfo: { cardbrand_code: m[2] as string } });
    },

    async referenceCard(custCode) {
      fake.calls.push('MG02-00104');
      if (fake.down) throw new SbpsUnavailable('SBPS down');
      const c = fake.customers.get(custCode);
      if (!c) return ng('99995000');
      return { ...ok(), card: { masked: c.masked, expiration: c.expiration, brand: c.brand } };
    },

    async removeCard(custCode) {
      fake.calls.push('MG02-00103');
      if (fake.down) throw new SbpsUnavailable('SBPS down');
      return fake.customers.delete(custCode) ? ok() : ng('99995000');
    },

    async authorize(input) {
      fake.calls.push('ST01-00131');
      if (fake.latencyMs) await new Promise((r) => setTimeout(r, fake.latencyMs));
      if (fake.down) throw new SbpsUnavailable('SBPS down');
      if (fake.nextAuthorisationNg) {
        const code = fake.nextAuthorisationNg;
        fake.nextAuthorisationNg = null;
        return ng(code);
      }
      const earlier = fake.transactions.find(
        (t) => t.orderId === input.orderId && t.status !== 'declined',
      );
      if (earlier)
        return ng(
          '99996000',
          fake.duplicateWithoutTracking ? {} : { trackingId: earlier.trackingId },
        );
      const c = fake.customers.get(input.custCode);
      if (!c) return ng('99995000');
      seq += 1;
      const t: FakeTransaction = {
        trackingId: String(10_000_000_000_000 + seq),
        spsTransactionId: `SPS${seq}`,
        orderId: input.orderId,
        custCode: input.custCode,
        amount: input.amount,
        status: c.decline ? 'declined' : 'authorised',
      };
      fake.transactions.push(t);
      if (c.decline) return ng('10122000');
      if (fake.loseNextAuthorisation) {
        fake.loseNextAuthorisation = false;
        throw new SbpsUnavailable('SBPS time-out');
      }
      return ok({ trackingId: t.trackingId, spsTransactionId: t.spsTransactionId });
    },

    async commit(input) {
      fake.calls.push('ST02-00101');
      if (fake.down) throw new SbpsUnavailable('SBPS down');
      const t = fake.transactions.find((x) => x.trackingId === input.trackingId);
      if (!t || t.status !== 'authorised') return ng('99903000');
      t.status = 'committed';
      if (fake.loseNextCommit) {
        fake.loseNextCommit = false;
        throw new SbpsUnavailable('SBPS time-out');
      }
      return ok({ processDate: '20261126141500' });
    },

    async sales(input) {
      if (fake.dropNextSales) {
        fake.dropNextSales = false;
        throw new SbpsUnavailable('the process died before sales');
      }
      fake.calls.push('ST02-00201');
      fake.salesDates.push(input.processingDatetime);
      if (fake.down) throw new SbpsUnavailable('SBPS down');
      const t = fake.transactions.find((x) => x.trackingId === input.trackingId);
      // SBPS sells a committed authorisation only (ADR 0058).
      if (!t || t.status !== 'committed') return ng('10110999');
      t.status = 'sold';
      if (fake.loseNextSales) {
        fake.loseNextSales = false;
        throw new SbpsUnavailable('SBPS time-out');
      }
      return ok({ trackingId: t.trackingId });
    },

    async inquire(input) {
      fake.calls.push('MG01-00101');
      if (fake.down) throw new SbpsUnavailable('SBPS down');
      const t = fake.transactions.find((x) => x.trackingId === input.trackingId);
      if (!t) return ng('99995000');
      return ok({
        trackingId: t.trackingId,
        payMethodInfo: {
          commit_status: t.status === 'authorised' ? '0' : '1',
          payment_status: t.status === 'sold' ? '2' : '1',
        },
      });
    },
  };
  return fake;
}
