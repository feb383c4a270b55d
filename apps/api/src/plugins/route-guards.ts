import type {
  FastifyRequest,
  onRequestAsyncHookHandler,
  preHandlerAsyncHookHandler,
} from 'fastify';
import { ROLE } from '@tenpo/domain';
import { forbidden } from '../lib/errors';
import type { UserRow } from '../db/types';
import type { AccessMode, StoreAccess } from '../modules/stores/access';
import type { StoreName } from '../modules/users/users.repo';
import { actorOf, type Actor } from './auth';

/**
 * Who may call a route, declared on the route and checked in its onRequest hooks: before its body
 * is read and its input validated. A caller without a session gets 401 and one of the wrong role
 * 403, never a 422 that describes the fields (issue 22 item 7; ASVS 5.0 8.2.1, OWASP API5:2023).
 * The route table is walked by test/auth-first.test.ts.
 */
type Guard = { onRequest: onRequestAsyncHookHandler[]; config: { access: AccessRule } };

/** The hook `createAuthenticate` makes; it reads only the request's headers. */
type Authenticate = preHandlerAsyncHookHandler;

const asHook = (fn: Authenticate) => fn as unknown as onRequestAsyncHookHandler;

/** A role as a route names it, and the one place that says which accounts hold it. */
export type Role = 'manager' | 'agency' | 'leader' | 'agency-or-manager';
export const isManager = (a: Actor): boolean => a.user.role === ROLE.manager;
export const isAgency = (a: Actor): boolean => a.user.role === ROLE.agency;
export const isLeader = (a: Actor): boolean => a.user.is_leader === 1;
const holds: Record<Role, (a: Actor) => boolean> = {
  manager: isManager,
  agency: isAgency,
  leader: isLeader,
  'agency-or-manager': (a) => isAgency(a) || isManager(a),
};

/** A route for any signed-in account. `owner` says how an object id it takes is checked. */
export const signedIn = (authenticate: Authenticate, owner?: string): Guard => ({
  onRequest: [asHook(authenticate)],
  config: { access: { who: 'signed-in', ...(owner ? { owner } : {}) } },
});

/** A route for the accounts holding `role`; any other signed-in account answers 403. */
export const withRole = (authenticate: Authenticate, role: Role, owner?: string): Guard => ({
  onRequest: [
    asHook(authenticate),
    async (req: FastifyRequest) => {
      if (!holds[role](actorOf(req))) throw forbidden();
    },
  ],
  config: { access: { who: role, ...(owner ? { owner } : {}) } },
});

/** A route open without a session; `owner` says what stands in for one (a signature, a token). */
export const open = (owner?: string): { config: { access: AccessRule } } => ({
  config: { access: { who: 'public', ...(owner ? { owner } : {}) } },
});

/**
 * A multipart route acting for the store its `user_id` field names: the upload checks it at the
 * first part, before any file byte is read (lib/uploads.ts `authorize`, ADR 0064).
 */
export const multipartStoreRoute = (
  authenticate: Authenticate,
  mode: AccessMode,
  opts: { owner?: string; role?: Role } = {},
): Guard => {
  const base = opts.role ? withRole(authenticate, opts.role) : signedIn(authenticate);
  return {
    onRequest: base.onRequest,
    config: {
      access: {
        who: opts.role ?? 'signed-in',
        store: { mode, from: 'multipart' },
        ...(opts.owner ? { owner: opts.owner } : {}),
      },
    },
  };
};

/**
 * Who may call a route and on what, declared on the route (`config.access`) so that
 * test/route-access.test.ts can walk the route table (issue 22 item 14, ADR 0068):
 * - `who`: the session it needs (`public`: none; `signed-in`: any; a role: that role only);
 * - `store`: the route acts for the store(s) its `user_id` (or `field`) names, checked by the
 *   `storeRoute` preHandler (`query`, `body`) or, for a multipart body, by the upload's own
 *   early check at the first part (`multipart`, lib/uploads.ts);
 * - `owner`: the route names an object by its id (a post, a group…) and the service checks that
 *   the object belongs to a store or tenant the caller may act for; the words say how.
 */
export type AccessRule = {
  who: 'public' | 'signed-in' | 'manager' | 'agency' | 'leader' | 'agency-or-manager';
  store?: { mode: AccessMode; from: 'query' | 'body' | 'multipart' | 'handler'; field?: string };
  owner?: string;
};

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: AccessRule;
  }
}

/** The store rows the storeRoute preHandler admitted, by request. */
const admitted = new WeakMap<FastifyRequest, UserRow[] | StoreName[]>();

/** The stores this request acts for, as the route's store rule admitted them. */
export const storesOf = (req: FastifyRequest): UserRow[] => admittedOf(req) as UserRow[];

/** The same for a route declared with `names: true`: the stores' ids and names only. */
export const storeNamesOf = (req: FastifyRequest): StoreName[] => admittedOf(req);

const admittedOf = (req: FastifyRequest): UserRow[] | StoreName[] => {
  const rows = admitted.get(req);
  if (!rows) throw new Error(`${req.routeOptions.url}: no storeRoute preHandler admitted a store`);
  return rows;
};

/** The one store this request acts for (a route naming a single `user_id`). */
export const storeOf = (req: FastifyRequest): UserRow => storesOf(req)[0] as UserRow;

type StoreGuard = Guard & { preHandler: preHandlerAsyncHookHandler[] };

/**
 * A route that acts for the store(s) named by `user_id` in its validated query or JSON body:
 * session first (onRequest), then, once the input is valid, the store rule of
 * `stores/access.ts` in a preHandler; a store the caller may not act for answers 404 before the
 * handler runs. An absent optional `user_id` means the caller's own account. The handler reads
 * the admitted rows with `storeOf(req)` / `storesOf(req)`.
 */
export const storeRoute = (
  authenticate: Authenticate,
  access: StoreAccess,
  mode: AccessMode,
  from: 'query' | 'body',
  opts: {
    field?: string;
    role?: Role;
    /** How an object id the route also takes is checked against the store. */
    owner?: string;
    /** A list of up to a thousand stores (a report) reads only ids and names (ADR 0036). */
    names?: boolean;
  } = {},
): StoreGuard => {
  const field = opts.field ?? 'user_id';
  const base = opts.role ? withRole(authenticate, opts.role) : signedIn(authenticate);
  return {
    ...base,
    preHandler: [
      async (req: FastifyRequest) => {
        const actor = actorOf(req);
        const input = (from === 'query' ? req.query : req.body) as Record<string, unknown> | null;
        const named = input?.[field];
        if (named === undefined || named === null) {
          admitted.set(req, [actor.user]);
          return;
        }
        const ids = (Array.isArray(named) ? named : [named]).map(Number);
        admitted.set(
          req,
          ids.length === 1
            ? [await access.storeFor(actor, ids[0] as number, mode)]
            : opts.names
              ? await access.storeNamesFor(actor, ids, mode)
              : await access.storesFor(actor, ids, mode),
        );
      },
    ],
    config: {
      access: {
        who: opts.role ?? 'signed-in',
        store: { mode, from, ...(opts.field ? { field: opts.field } : {}) },
        ...(opts.owner ? { owner: opts.owner } : {}),
      },
    },
  };
};
