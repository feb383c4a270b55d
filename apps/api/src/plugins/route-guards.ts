import type {
  FastifyRequest,
  onRequestAsyncHookHandler,
  preHandlerAsyncHookHandler,
} from 'fastify';
import { ROLE } from '@tenpo/domain';
import { forbidden } from '../lib/errors';
import { actorOf, type Actor } from './auth';

/**
 * Who may call a route, declared on the route and checked in its onRequest hooks: before its body
 * is read and its input validated. A caller without a session gets 401 and one of the wrong role
 * 403, never a 422 that describes the fields (issue 22 item 7; ASVS 5.0 8.2.1, OWASP API5:2023).
 * The route table is walked by test/auth-first.test.ts.
 */
type Guard = { onRequest: onRequestAsyncHookHandler[] };

/** The hook `createAuthenticate` makes; it reads only the request's headers. */
type Authenticate = preHandlerAsyncHookHandler;

const asHook = (fn: Authenticate) => fn as unknown as onRequestAsyncHookHandler;

/** A route for any signed-in account. */
export const signedIn = (authenticate: Authenticate): Guard => ({
  onRequest: [asHook(authenticate)],
});

/** A route for the signed-in accounts `may` admits; any other answers 403. */
export const withRole = (authenticate: Authenticate, may: (actor: Actor) => boolean): Guard => ({
  onRequest: [
    asHook(authenticate),
    async (req: FastifyRequest) => {
      if (!may(actorOf(req))) throw forbidden();
    },
  ],
});

export const isManager = (a: Actor): boolean => a.user.role === ROLE.manager;
export const isAgency = (a: Actor): boolean => a.user.role === ROLE.agency;
export const isLeader = (a: Actor): boolean => a.user.is_leader === 1;
