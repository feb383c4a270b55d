import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import {
  changePasswordRequest,
  forgotPasswordRequest,
  ja,
  loginRequest,
  loginResponseData,
  ok,
  resetPasswordRequest,
} from '@tenpo/domain';
import { actorOf } from '../../plugins/auth';
import { done, metaOf, okData, withZod } from '../../lib/route';
import type { AuthService } from './auth.service';
import { signedIn, open } from '../../plugins/route-guards';

const message = z.object({ status_code: z.number(), message: z.string() });

export function registerAuthRoutes(
  app: FastifyInstance,
  deps: {
    auth: AuthService;
    authenticate: preHandlerAsyncHookHandler;
    /** The rotation call's check: a token rotated moments ago still leads to its successor. */
    authenticateRotation: preHandlerAsyncHookHandler;
    authRateLimit: object;
  },
): void {
  const r = withZod(app);
  const { auth, authenticate } = deps;
  /** Open without a session, and rate-limited per address. */
  const limited = { rateLimit: deps.authRateLimit, ...open().config };

  r.post(
    '/login',
    {
      config: limited,
      schema: {
        tags: ['auth'],
        summary: 'Sign in',
        body: loginRequest,
        response: { 200: ok(loginResponseData) },
      },
    },
    async (req) => okData(await auth.login(req.body.email, req.body.password, metaOf(req))),
  );

  r.get(
    '/refresh-token',
    {
      ...signedIn(deps.authenticateRotation),
      schema: {
        tags: ['auth'],
        summary: 'Rotate the session token',
        response: { 200: ok(loginResponseData) },
      },
    },
    async (req) => okData(await auth.refresh(actorOf(req), metaOf(req))),
  );

  r.get(
    '/logout',
    {
      ...signedIn(authenticate),
      schema: {
        tags: ['auth'],
        summary: 'Sign out (revokes the token)',
        response: { 200: message },
      },
    },
    async (req) => {
      await auth.logout(actorOf(req));
      return done(ja.logoutDone);
    },
  );

  r.post(
    '/forgot-password',
    {
      config: limited,
      schema: {
        tags: ['auth'],
        summary: 'Mail a password-reset link',
        body: forgotPasswordRequest,
        response: { 200: message },
      },
    },
    async (req) => {
      // req.host: the Host (or, behind our proxy, X-Forwarded-Host) the browser asked on.
      await auth.forgotPassword(req.body.email, req.host);
      return done(ja.forgotPasswordSent);
    },
  );

  r.post(
    '/reset-password',
    {
      config: limited,
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with a mailed token',
        body: resetPasswordRequest,
        response: { 200: message },
      },
    },
    async (req) => {
      await auth.resetPassword(req.body);
      return done(ja.resetPasswordDone);
    },
  );

  r.put(
    '/account-setting/password',
    {
      ...signedIn(authenticate),
      schema: {
        tags: ['account'],
        summary: 'Change password',
        body: changePasswordRequest,
        response: { 200: message },
      },
    },
    async (req) => {
      await auth.changePassword(actorOf(req), req.body.current_password, req.body.password);
      return done(ja.passwordChanged);
    },
  );
}
