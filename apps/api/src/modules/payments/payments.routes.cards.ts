import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  cardRegisterBody,
  creditCardResponse,
  idField,
  ok,
  paymentJa,
  paymentStoreQuery,
} from '@tenpo/domain';
import type { UserRow } from '../../db/types';
import { AppError, validationError } from '../../lib/errors';
import { okData, withZod } from '../../lib/route';
import { actorOf } from '../../plugins/auth';
import { storeOf, storeRoute } from '../../plugins/route-guards';
import type { PaymentRouteDeps } from './payments.routes';
import { SBPS_ERR, SbpsUnavailable } from './sbps.client';
import { openPending, sealPending, tdsChallengeNeeded, tdsExpired, tdsFailed } from './tds';

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
async function authenticateCard(
  deps: PaymentRouteDeps,
  req: FastifyRequest,
  s: UserRow,
  token: string,
  tokenKey: string,
  returnPath: (typeof CARD_SCREENS)[number],
): Promise<z.infer<typeof cardAuthenticateResponse>> {
  const { payments } = deps;
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
}

/** The card calls: EMV 3-D Secure and its completion, registration, reference and removal. */
export function registerCardRoutes(app: FastifyInstance, deps: PaymentRouteDeps): void {
  const r = withZod(app);
  const { payments, access } = deps;
  const tags = ['payments'];

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
        deps,
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
        deps,
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
}
