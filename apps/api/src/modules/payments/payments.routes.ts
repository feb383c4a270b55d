import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import {
  cardRegisterBody,
  creditCardResponse,
  idField,
  ok,
  paymentJa,
  paymentMethodBody,
  paymentMethodSchema,
  paymentMethodsResponse,
  paymentPlanBody,
  paymentPlansResponse,
  paymentProviderSchema,
  paymentStoreQuery,
  purchaseBody,
  purchaseFormSchema,
  selectedMethodResponse,
  selectedPlanResponse,
  selectedPlanSchema,
  type PlanId,
} from '@tenpo/domain';
import type { LinkOrigin } from '../../lib/hosts';
import type { UserRow } from '../../db/types';
import { okData, withZod } from '../../lib/route';
import { actorOf } from '../../plugins/auth';
import type { StoreAccess } from '../stores/access';
import { AppError, validationError } from '../../lib/errors';
import { parseSjisForm, sjis } from './sbps.codec';
import { SBPS_ERR, SbpsUnavailable } from './sbps.client';
import type { PaymentsService } from './payments.service';
import {
  openPending,
  sealPending,
  tdsChallengeNeeded,
  tdsExpired,
  tdsFailed,
  type TdsClient,
} from './tds';
import { storeRoute, storeOf, type AccessRule } from '../../plugins/route-guards';

/** The web screens that hold the card form: where the issuer's challenge sends the user back. */
const CARD_SCREENS = ['/register-payment', '/change-payment-method'] as const;
/** How long a started 3-D Secure authentication may take before the user must start again. */
const TDS_PENDING_MS = 20 * 60 * 1000;

const cardAuthenticateBody = cardRegisterBody.extend({
  return_path: z.enum(CARD_SCREENS).default('/change-payment-method'),
});
const cardAuthenticateResponse = z.object({
  /** registered: stored (frictionless); challenge: send the browser to redirect_url first. */
  status: z.enum(['registered', 'challenge']),
  card: creditCardResponse,
  redirect_url: z.string().nullable(),
});
const cardCompleteBody = z.object({
  user_id: idField(),
  state: z.string().trim().min(1).max(4000),
  tracking_id: z.string().trim().min(1).max(64),
});

/** SBPS's server-to-server notification and the browser's returns: no API key, no session. */
export const SBPS_OPEN_PATHS = /^\/api\/payment\/sbps\/(notification|return\/[a-z]+)(\/|\?|$)/;

const OUTCOMES = ['success', 'error', 'cancel'] as const;

/**
 * The payment calls of spec 1 §7 and the contract's §3 (issue 13, ADR 0050). Every call names a
 * store (`user_id`) and goes through store access: a store the caller may not act for is 404.
 */
export function registerPaymentRoutes(
  app: FastifyInstance,
  deps: {
    payments: PaymentsService;
    access: StoreAccess;
    linkOrigin: LinkOrigin;
    authenticate: preHandlerAsyncHookHandler;
    /**
     * EMV 3-D Secure before a card is stored (ADR 0059); `client` null only with an in-memory
     * SBPS that has no 3DS (the unit tests' fake).
     */
    tds?: { client: TdsClient | null; secret: Buffer; now: () => Date };
  },
): void {
  /** SBPS calls these, or the browser coming back from its page: the form's sps_hashcode is checked. */
  const SBPS_SIGNED: AccessRule = {
    who: 'public',
    owner: "SBPS's form, checked by its sps_hashcode",
  };
  const r = withZod(app);
  const { payments, access } = deps;
  const tags = ['payments'];

  r.get(
    '/payment/provider',
    {
      ...storeRoute(deps.authenticate, access, 'read', 'query'),
      schema: {
        tags,
        summary: 'The card token script and the merchant the browser names to it (ADR 0050)',
        querystring: paymentStoreQuery,
        response: { 200: ok(paymentProviderSchema) },
      },
    },
    async () => okData(payments.provider()),
  );

  r.get(
    '/payment-methods',
    {
      ...storeRoute(deps.authenticate, access, 'read', 'query'),
      schema: {
        tags,
        summary: 'Payment methods; agency invoice is disabled for a direct customer',
        querystring: paymentStoreQuery,
        response: { 200: ok(paymentMethodsResponse) },
      },
    },
    async (req) => okData(payments.methods(storeOf(req))),
  );

  r.post(
    '/payment-methods',
    {
      ...storeRoute(deps.authenticate, access, 'write', 'body'),
      schema: {
        tags,
        summary: "Chooses the store's payment method",
        body: paymentMethodBody,
        response: { 200: ok(paymentMethodSchema) },
      },
    },
    async (req) => {
      const s = storeOf(req);
      const m = await payments.chooseMethod(actorOf(req).user, s, req.body.payment_name);
      return okData(m, paymentJa.methodChanged);
    },
  );

  r.get(
    '/payment-plans',
    {
      ...storeRoute(deps.authenticate, access, 'read', 'query'),
      schema: {
        tags,
        summary: 'The plans and their monthly prices (yen)',
        querystring: paymentStoreQuery,
        response: { 200: ok(paymentPlansResponse) },
      },
    },
    async () => okData(payments.plans()),
  );

  r.post(
    '/payment-plans',
    {
      ...storeRoute(deps.authenticate, access, 'write', 'body'),
      schema: {
        tags,
        summary:
          'Chooses the plan: at once before the first payment, from the next charge during a paid period (next_plan)',
        body: paymentPlanBody,
        response: { 200: ok(selectedPlanSchema) },
      },
    },
    async (req) => {
      const s = storeOf(req);
      const plan = await payments.choosePlan(actorOf(req).user, s, req.body.payment_plan as PlanId);
      return okData(plan, paymentJa.planChanged);
    },
  );

  r.get(
    '/payment/selected-payment-method',
    {
      ...storeRoute(deps.authenticate, access, 'read', 'query'),
      schema: {
        tags,
        summary: "The store's payment method, or null",
        querystring: paymentStoreQuery,
        response: { 200: ok(selectedMethodResponse) },
      },
    },
    async (req) => okData(await payments.selectedMethod(storeOf(req))),
  );

  r.get(
    '/payment/selected-payment-plan',
    {
      ...storeRoute(deps.authenticate, access, 'read', 'query'),
      schema: {
        tags,
        summary: "The store's plan, the next one and the billing days, or null",
        querystring: paymentStoreQuery,
        response: { 200: ok(selectedPlanResponse) },
      },
    },
    async (req) => okData(await payments.selectedPlan(storeOf(req))),
  );

  const providerDown = () => new AppError(503, 'payment_provider_down', paymentJa.providerDown);
  const sbpsCall = async <T>(f: () => Promise<T>): Promise<T> => {
    try {
      return await f();
    } catch (err) {
      if (err instanceof SbpsUnavailable) throw providerDown();
      throw err;
    }
  };

  /**
   * EMV 3-D Secure, then the card: TA02-00101-101 with the token pair. Frictionless (Y): stored
   * at once. Challenge (C): nothing stored; the browser goes to the issuer and comes back to the
   * card screen with the sealed pending state. Refused (N): nothing stored.
   */
  const authenticateCard = async (
    req: FastifyRequest,
    s: UserRow,
    token: string,
    tokenKey: string,
    returnPath: (typeof CARD_SCREENS)[number],
  ): Promise<z.infer<typeof cardAuthenticateResponse>> => {
    const registered = async () => ({
      status: 'registered' as const,
      card: await payments.registerCard(actorOf(req).user, s, token, tokenKey),
      redirect_url: null,
    });
    const tds = deps.tds;
    if (!tds?.client) return registered();
    const client = tds.client;
    const custCode = await payments.custCodeFor(s);
    const state = sealPending(tds.secret, {
      userId: s.id,
      token,
      tokenKey,
      expiresAt: tds.now().getTime() + TDS_PENDING_MS,
    });
    const origin = await deps.linkOrigin(req.headers.host);
    const a = await sbpsCall(() =>
      client.authenticate({
        custCode,
        token,
        tokenKey,
        returnUrl: `${origin}${returnPath}?tds=${state}`,
      }),
    );
    if (a.status === 'Y') return registered();
    if (a.status === 'C') return { status: 'challenge', card: null, redirect_url: a.challengeUrl };
    // A spent or expired token is the token's fault, as at registration.
    if (a.errCode === SBPS_ERR.token) throw validationError({ token: [paymentJa.tokenFailed] });
    throw tdsFailed();
  };

  r.post(
    '/payment/credit-card/authenticate',
    {
      ...storeRoute(deps.authenticate, access, 'write', 'body'),
      schema: {
        tags,
        summary:
          "EMV 3-D Secure (TA02-00101-101) for the token pair, then the card: stored at once when the issuer needs no challenge, else the issuer's page to send the browser to (ADR 0059)",
        body: cardAuthenticateBody,
        response: { 200: ok(cardAuthenticateResponse) },
      },
    },
    async (req) => {
      const s = storeOf(req);
      const out = await authenticateCard(
        req,
        s,
        req.body.token,
        req.body.tokenKey,
        req.body.return_path,
      );
      return okData(out, out.status === 'registered' ? paymentJa.cardRegistered : undefined);
    },
  );

  r.post(
    '/payment/credit-card/authenticate/complete',
    {
      ...storeRoute(deps.authenticate, access, 'write', 'body'),
      schema: {
        tags,
        summary:
          "Back from the issuer's challenge: reads the verdict from SBPS (TA02-00201-101), never from the browser, and stores the card only when authenticated",
        body: cardCompleteBody,
        response: { 200: ok(cardAuthenticateResponse) },
      },
    },
    async (req) => {
      const s = storeOf(req);
      const tds = deps.tds;
      const pending = tds ? openPending(tds.secret, req.body.state, tds.now()) : null;
      if (!tds?.client || !pending || pending.userId !== s.id) throw tdsExpired();
      const client = tds.client;
      const custCode = await payments.custCodeFor(s);
      const verdict = await sbpsCall(() => client.result(custCode, req.body.tracking_id));
      if (verdict !== 'Y') throw tdsFailed();
      const card = await payments.registerCard(
        actorOf(req).user,
        s,
        pending.token,
        pending.tokenKey,
      );
      return okData(
        { status: 'registered' as const, card, redirect_url: null },
        paymentJa.cardRegistered,
      );
    },
  );

  r.post(
    '/payment/credit-card/register',
    {
      ...storeRoute(deps.authenticate, access, 'write', 'body'),
      schema: {
        tags,
        summary:
          "Registers or replaces the store's card from the token script's token pair (never the number); clears a payment failure and retries the failed charge",
        body: cardRegisterBody,
        response: { 200: ok(creditCardResponse) },
      },
    },
    async (req) => {
      const s = storeOf(req);
      // Through EMV 3-D Secure too: a card whose issuer wants a challenge must use /authenticate.
      const out = await authenticateCard(
        req,
        s,
        req.body.token,
        req.body.tokenKey,
        '/change-payment-method',
      );
      if (out.status !== 'registered') throw tdsChallengeNeeded();
      return okData(out.card, paymentJa.cardRegistered);
    },
  );

  r.get(
    '/payment/credit-card/reference',
    {
      ...storeRoute(deps.authenticate, access, 'read', 'query'),
      schema: {
        tags,
        summary: "The store's card as SBPS holds it (masked), or null",
        querystring: paymentStoreQuery,
        response: { 200: ok(creditCardResponse) },
      },
    },
    async (req) => okData(await payments.referenceCard(storeOf(req))),
  );

  r.get(
    '/payment/credit-card/remove',
    {
      ...storeRoute(deps.authenticate, access, 'write', 'query'),
      schema: {
        tags,
        summary: "Removes the store's card; refused while a paid plan is billed to it",
        querystring: paymentStoreQuery,
        response: { 200: ok(z.null()) },
      },
    },
    async (req) => {
      const s = storeOf(req);
      await payments.removeCard(actorOf(req).user, s);
      return okData(null, paymentJa.cardRemoved);
    },
  );

  r.post(
    '/payment/purchase',
    {
      ...storeRoute(deps.authenticate, access, 'write', 'body'),
      schema: {
        tags,
        summary:
          "The signed form (A01-1) of SBPS's hosted purchase page for the first payment or a failed period; the browser posts it",
        body: purchaseBody,
        response: { 200: ok(purchaseFormSchema) },
      },
    },
    async (req) => {
      const s = storeOf(req);
      return okData(await payments.purchase(s, await deps.linkOrigin(req.headers.host)));
    },
  );

  // SBPS's side: Shift_JIS forms, answered without the API key or a session (their own checks
  // are the hash and the order id).
  app.register(async (sbps) => {
    sbps.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'buffer' },
      (_req, body, done) => done(null, parseSjisForm(body as Buffer)),
    );
    const z2 = withZod(sbps);
    const formOf = (req: FastifyRequest): Record<string, string> => {
      const b = req.body;
      const q = req.query as Record<string, unknown>;
      const src = b && typeof b === 'object' ? (b as Record<string, unknown>) : q;
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(src)) if (typeof v === 'string') out[k] = v;
      return out;
    };

    z2.post(
      '/payment/sbps/notification',
      {
        config: { access: SBPS_SIGNED },
        schema: {
          tags,
          summary:
            'SBPS result notification (A02-1, pagecon_url): Shift_JIS form; answers text/plain `OK,` or `NG,<reason>` (tampered, unknown, replay)',
          security: [],
        },
      },
      async (req, reply) => {
        const out = await payments.notification(formOf(req));
        reply.type('text/plain; charset=Shift_JIS');
        return reply.send(sjis(out.ok ? 'OK,' : `NG,${out.reason}`));
      },
    );

    const returnSchema = {
      tags,
      summary:
        "The browser's return from SBPS's hosted page (A03-1): 303 to the web's /register-payment with stt_id 12999 or 18999",
      params: z.object({ outcome: z.enum(OUTCOMES) }),
      querystring: z.object({ user_id: idField() }).passthrough(),
      security: [],
    };
    const back = (
      req: FastifyRequest,
      p: { outcome: (typeof OUTCOMES)[number] },
      q: { user_id: number },
    ) => payments.returnTo(p.outcome, q.user_id, formOf(req));
    z2.post(
      '/payment/sbps/return/:outcome',
      { config: { access: SBPS_SIGNED }, schema: returnSchema },
      async (req, reply) => reply.redirect(await back(req, req.params, req.query), 303),
    );
    z2.get(
      '/payment/sbps/return/:outcome',
      { config: { access: SBPS_SIGNED }, schema: returnSchema },
      async (req, reply) => reply.redirect(await back(req, req.params, req.query), 303),
    );
  });
}
