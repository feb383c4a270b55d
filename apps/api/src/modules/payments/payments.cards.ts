import { cardBrandOf, paymentJa, ROLE, type CreditCard } from '@tenpo/domain';
import type { UserRow } from '../../db/types';
import { validationError } from '../../lib/errors';
import type { AuditActor } from '../audit/audit.repo';
import type { PaymentsContext } from './payments.context';
import { isCardError, SBPS_ERR, SbpsUnavailable } from './sbps.client';

/**
 * The store's card, kept at SBPS under its cust_code (the card never reaches Tenpo: a token
 * does); Tenpo keeps a masked copy. A new card after a declined charge tries that month again.
 */
export function createCards(
  ctx: PaymentsContext,
  retryFailedPeriod: (storeId: number) => Promise<void>,
) {
  const { repo, sbps, log, now, record, cardOf, custCodeOf, providerDown } = ctx;
  return {
    async registerCard(
      actor: AuditActor,
      store: UserRow,
      token: string,
      tokenKey: string,
    ): Promise<CreditCard> {
      const before = await repo.ensureAccount(store.id, now());
      const custCode = await custCodeOf(store.id);
      try {
        let r = await sbps.registerCard(custCode, token, tokenKey, !!before.card_masked);
        // Tenpo's copy and SBPS disagree on whether the customer exists: the other call.
        if (r.result === 'NG' && r.errCode === SBPS_ERR.customer)
          r = await sbps.registerCard(custCode, token, tokenKey, !before.card_masked);
        if (r.result !== 'OK') {
          if (r.errCode === SBPS_ERR.token)
            throw validationError({ token: [paymentJa.tokenFailed] });
          if (isCardError(r.errCode)) throw validationError({ card: [paymentJa.cardInvalid] });
          throw validationError({ card: [paymentJa.cardRegisterFailed] });
        }
        const ref = await sbps.referenceCard(custCode);
        if (ref.result !== 'OK' || !ref.card)
          throw validationError({ card: [paymentJa.cardRegisterFailed] });
        const card = ref.card;
        const stamp = now();
        const hadFailed = await repo.transaction(async (q, trx) => {
          await q.updateAccount(store.id, {
            card_brand: card.brand,
            card_masked: card.masked,
            card_expiry: card.expiration,
            method: before.method ?? 'credit_card',
            updated_at: stamp,
          });
          const u = await q.store(store.id);
          if (u.payment_fail === 1)
            await q.setUser(store.id, { payment_fail: 0, updated_at: stamp });
          await record(
            trx,
            actor,
            store.id,
            before.card_masked ? 'カードの更新' : 'カードの登録',
            { card: before.card_masked, payment_fail: u.payment_fail },
            { card: card.masked, payment_fail: 0 },
          );
          return u.payment_fail === 1;
        });
        if (hadFailed) await retryFailedPeriod(store.id);
        return {
          cc_number: card.masked,
          cc_expiration: card.expiration,
          cardbrand_code: cardBrandOf(card.brand),
        };
      } catch (err) {
        if (err instanceof SbpsUnavailable) {
          log.warn({ err, store: store.id }, 'SBPS unavailable: card not registered');
          throw providerDown();
        }
        throw err;
      }
    },

    /** The card as SBPS holds it; Tenpo's copy when SBPS cannot be reached. */
    async referenceCard(store: UserRow): Promise<CreditCard | null> {
      const a = await repo.account(store.id);
      // Asked even without a copy: a card entered on the hosted page is kept by SBPS under the
      // store's cust_code (its "register this card" box), and the monthly charge will use it.
      if (!a?.cust_code) return null;
      try {
        const r = await sbps.referenceCard(a.cust_code);
        const card = r.result === 'OK' ? r.card : null;
        const copy = card
          ? { card_brand: card.brand, card_masked: card.masked, card_expiry: card.expiration }
          : { card_brand: null, card_masked: null, card_expiry: null };
        if (
          copy.card_masked !== a.card_masked ||
          copy.card_expiry !== a.card_expiry ||
          copy.card_brand !== a.card_brand
        )
          await repo.updateAccount(store.id, { ...copy, updated_at: now() });
        if (!card) return null;
        return {
          cc_number: card.masked,
          cc_expiration: card.expiration,
          cardbrand_code: cardBrandOf(card.brand),
        };
      } catch (err) {
        if (!(err instanceof SbpsUnavailable)) throw err;
        log.warn({ err, store: store.id }, 'SBPS unavailable: the stored copy of the card');
        return cardOf(a);
      }
    },

    async removeCard(actor: AuditActor, store: UserRow): Promise<void> {
      const a = await repo.account(store.id);
      if (!a?.cust_code) return;
      if (store.role === ROLE.shop && a.paid_through && a.method === 'credit_card')
        throw validationError({ card: [paymentJa.cardInUse] });
      try {
        const r = await sbps.removeCard(a.cust_code);
        // Unknown at SBPS: already gone there; Tenpo's copy goes too.
        if (r.result !== 'OK' && r.errCode !== SBPS_ERR.customer)
          throw validationError({ card: [paymentJa.cardRegisterFailed] });
      } catch (err) {
        if (err instanceof SbpsUnavailable) throw providerDown();
        throw err;
      }
      const stamp = now();
      await repo.transaction(async (q, trx) => {
        await q.updateAccount(store.id, {
          card_brand: null,
          card_masked: null,
          card_expiry: null,
          updated_at: stamp,
        });
        await record(trx, actor, store.id, 'カードの削除', { card: a.card_masked }, { card: null });
      });
    },
  };
}
