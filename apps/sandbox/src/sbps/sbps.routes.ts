import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../shared/runtime';
import { parseSjisForm } from './sbps.codec';
import { SBPS_SANDBOX_MERCHANT, maskCard } from './sbps.constants';
import type { SbpsContext } from './sbps.core';
import { registerApi } from './sbps.api';
import { postNotification, registerLink } from './sbps.link';
import { sbpsStore, seedSbps } from './sbps.state';
import { registerToken } from './sbps.token';
import { registerTds } from './sbps.3ds';

const at = (ms: number): string => new Date(ms).toISOString();

/**
 * SB Payment Service (providers.md §5, ADR 0050): the token script,
 * the hosted purchase page with its result notification, and the XML API, under `/sbps`.
 */
export function registerSbps(app: FastifyInstance, rt: Runtime): void {
  const merchant = SBPS_SANDBOX_MERCHANT;
  const store = sbpsStore(rt.dir, rt.now, merchant.merchantId, merchant.serviceId);
  const ctx: SbpsContext = { rt, store, merchant };
  rt.onReset('sbps', () => {
    store.data = seedSbps(merchant.merchantId, merchant.serviceId);
    store.save();
  });

  app.register(
    async (scope) => {
      // SBPS posts and reads forms in Shift_JIS: `%83%65` is one Japanese character, not two
      // Latin-1 ones. Replaced inside this scope only; the other emulators keep UTF-8 forms.
      if (scope.hasContentTypeParser('application/x-www-form-urlencoded'))
        scope.removeContentTypeParser('application/x-www-form-urlencoded');
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'buffer', bodyLimit: 1024 * 1024 },
        (_req, body, done) => done(null, parseSjisForm(body as Buffer)),
      );
      for (const type of ['text/xml', 'application/xml'])
        if (scope.hasContentTypeParser(type)) scope.removeContentTypeParser(type);
      scope.addContentTypeParser(
        ['text/xml', 'application/xml'],
        { parseAs: 'buffer', bodyLimit: 1024 * 1024 },
        (_req, body, done) => done(null, body),
      );

      registerToken(scope, ctx);
      // Before the XML API: its hook answers TA02-* and checks 3DS at card registration.
      registerTds(scope, ctx);
      registerLink(scope, ctx);
      registerApi(scope, ctx);

      // ---- controls (JSON, like the other providers' controls) ------------------------------
      scope.get('/control/payments', async (req) => {
        const orderId = (req.query as Record<string, unknown>).order_id;
        return {
          data: store.data.transactions
            .filter((t) => typeof orderId !== 'string' || t.orderId === orderId)
            .map((t) => ({
              tracking_id: t.trackingId,
              sps_transaction_id: t.spsTransactionId,
              order_id: t.orderId,
              cust_code: t.custCode,
              item_id: t.itemId,
              item_name: t.itemName,
              amount: t.amount,
              tax: t.tax,
              status: t.status,
              channel: t.channel,
              card: t.card,
              err_code: t.errCode,
              created_at: at(t.createdAt),
              updated_at: at(t.updatedAt),
            })),
        };
      });
      scope.get('/control/customers', async () => ({
        data: store.data.customers.map((c) => ({
          cust_code: c.custCode,
          merchant_id: c.merchantId,
          service_id: c.serviceId,
          card: {
            brand: c.card.brand,
            masked: maskCard(c.card.number),
            expiration: c.card.expiration,
          },
          created_at: at(c.createdAt),
          updated_at: at(c.updatedAt),
        })),
      }));
      const notificationJson = (n: (typeof store.data.notifications)[number]) => ({
        id: n.id,
        url: n.url,
        order_id: n.orderId,
        tracking_id: n.trackingId,
        fields: Object.fromEntries(n.fields),
        body: n.body,
        sent_at: at(n.sentAt),
        reply: n.reply,
        error: n.error,
        accepted: n.accepted,
        resends: n.resends.map((r) => ({ ...r, at: at(r.at) })),
      });
      scope.get('/control/notifications', async () => ({
        data: store.data.notifications.map(notificationJson),
      }));
      scope.post<{ Params: { id: string } }>(
        '/control/notifications/:id/resend',
        async (req, reply) => {
          const n = store.data.notifications.find((x) => x.id === req.params.id);
          if (!n) return reply.code(404).send({ error: 'not_found' });
          const custCode = n.fields.find(([k]) => k === 'cust_code')?.[1] ?? '';
          const out = await postNotification(ctx, n.url, n.body, [custCode, n.orderId]);
          n.resends.push({
            at: rt.now(),
            reply: out.reply,
            error: out.error,
            accepted: out.accepted,
          });
          store.save();
          return { data: { reply: out.reply, error: out.error, accepted: out.accepted } };
        },
      );
      scope.post('/control/reset', async () => {
        rt.reset('sbps');
        return { data: { reset: 'sbps' } };
      });
    },
    { prefix: '/sbps' },
  );
}
