import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  ja,
  ok,
  registerRequest,
  registrationFormRequest,
  verifyTokenRequest,
  verifyTokenResponseData,
} from '@tenpo/domain';
import { done, okData, withZod } from '../../lib/route';
import type { RegistrationService } from './registration.service';
import { open } from '../../plugins/route-guards';

const message = z.object({ status_code: z.number(), message: z.string() });

export function registerRegistrationRoutes(
  app: FastifyInstance,
  deps: { registration: RegistrationService; authRateLimit: object },
): void {
  const r = withZod(app);
  const { registration } = deps;
  /** Open without a session, and rate-limited per address. */
  const limited = { rateLimit: deps.authRateLimit, ...open().config };

  r.post(
    '/registration-form',
    {
      config: limited,
      schema: {
        tags: ['registration'],
        summary: 'Store registration request; mails the account-registration link',
        body: registrationFormRequest,
        response: { 200: message },
      },
    },
    async (req) => {
      // req.host: the Host (or, behind our proxy, X-Forwarded-Host) the browser asked on.
      await registration.submit(req.body, req.host);
      return done(ja.registrationReceived);
    },
  );

  r.post(
    '/register/verify-token',
    {
      config: limited,
      schema: {
        tags: ['registration'],
        summary: 'Check an account-registration token',
        body: verifyTokenRequest,
        response: { 200: ok(verifyTokenResponseData) },
      },
    },
    async (req) => okData(await registration.verify(req.body.token)),
  );

  r.post(
    '/register',
    {
      config: limited,
      schema: {
        tags: ['registration'],
        summary: 'Create the account with a password',
        body: registerRequest,
        response: { 200: message },
      },
    },
    async (req) => {
      await registration.register(req.body, req.host);
      return done(ja.registerDone);
    },
  );
}
