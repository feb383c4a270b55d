import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, login, type TestApp } from './helpers';

/**
 * Issue 22 item 7: session and role before input. The route table is walked from the OpenAPI
 * document the app serves: every operation but the public ones answers 401 without a session,
 * and every role-restricted one 403 to a wrong role, however wrong its input (a path id of
 * "x", an empty JSON body), never 422 with the field details.
 */
type Doc = {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>>;
};
type Op = { method: string; path: string; hasBody: boolean };

/** Operations open without a session (health, sign-in and sign-up, the provider's returns…). */
const PUBLIC = new Set([
  'GET /api/health',
  'GET /api/health/live',
  'GET /api/health/ready',
  'POST /api/login',
  'POST /api/forgot-password',
  'POST /api/reset-password',
  'POST /api/account-setting/email/confirm',
  'POST /api/registration-form',
  'POST /api/register/verify-token',
  'POST /api/register',
  'GET /api/domain/{prefix}/title',
  'GET /api/publisher/callback/{key}',
  'GET /api/knowledge-tag/embed',
  'POST /api/knowledge-tag/view',
  'POST /api/payment/sbps/notification',
  'POST /api/payment/sbps/return/{outcome}',
  'GET /api/payment/sbps/return/{outcome}',
]);

/** Who may call the role-restricted operations; any other signed-in account gets 403. */
const roleOf = (op: Op): 'manager' | 'agency' | 'agency-or-manager' | 'leader' | null => {
  if (op.path.startsWith('/api/admin/')) return 'manager';
  if (op.path.startsWith('/api/group-leader/')) return 'leader';
  if (op.path === '/api/agency/groups' && op.method === 'POST') return 'agency-or-manager';
  if (op.path === '/api/agency/groups/{id}' && op.method === 'PUT') return 'agency-or-manager';
  if (op.path.startsWith('/api/agency/')) return 'agency';
  return null;
};

/** Accounts of the demo data, and which roles they are not. */
const WRONG: Record<NonNullable<ReturnType<typeof roleOf>>, string[]> = {
  manager: ['agency@tenpo.example', 'shop@tenpo.example', 'leader@tenpo.example'],
  agency: ['manager@tenpo.example', 'shop@tenpo.example', 'leader@tenpo.example'],
  'agency-or-manager': ['shop@tenpo.example', 'leader@tenpo.example'],
  leader: ['shop@tenpo.example', 'agency@tenpo.example', 'manager@tenpo.example'],
};

let t: TestApp;
let ops: Op[] = [];
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await buildTestApp();
  const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as Doc;
  ops = Object.entries(doc.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, o]) => ({
      method: method.toUpperCase(),
      path,
      hasBody:
        o.requestBody !== undefined || ['POST', 'PUT', 'PATCH'].includes(method.toUpperCase()),
    })),
  );
  for (const email of Object.values(WRONG).flat()) tokens[email] ??= await login(t.app, email);
});
afterAll(async () => {
  await t.close();
});

/** The operation called with input that cannot pass validation. */
const badCall = (op: Op, token: string | null) =>
  call(t.app, {
    method: op.method as 'GET',
    url: op.path.replace(/\{[^}]+\}/g, 'x'),
    token,
    ...(op.hasBody ? { payload: {} } : {}),
  });

describe('session and role before input (issue 22 item 7)', () => {
  it('the walk covers the route table', () => {
    expect(ops.length).toBeGreaterThan(100);
    for (const p of PUBLIC) expect(ops.map((o) => `${o.method} ${o.path}`)).toContain(p);
  });

  it('the role each route declares (config.access, ADR 0068) is the one its path implies', () => {
    const declared = new Map<string, string>();
    for (const r of t.app.routeTable) {
      const who = (r.config as { access?: { who: string } } | undefined)?.access?.who;
      const url = r.url.replace(/:(\w+)/g, '{$1}');
      for (const m of ([] as string[]).concat(r.method as string))
        if (who) declared.set(`${m} ${url}`, who);
    }
    const wrong: string[] = [];
    for (const op of ops) {
      const key = `${op.method} ${op.path}`;
      const expected = PUBLIC.has(key) ? 'public' : (roleOf(op) ?? 'signed-in');
      if (declared.get(key) !== expected) wrong.push(`${key}: ${declared.get(key)} ≠ ${expected}`);
    }
    expect(wrong).toEqual([]);
  });

  it('every operation but the public ones answers 401 without a session, whatever its input', async () => {
    const wrong: string[] = [];
    for (const op of ops) {
      if (PUBLIC.has(`${op.method} ${op.path}`)) continue;
      const res = await badCall(op, null);
      if (res.statusCode !== 401) wrong.push(`${op.method} ${op.path} → ${res.statusCode}`);
      else expect(res.json()).toMatchObject({ status_code: 401, errors: {} });
    }
    expect(wrong).toEqual([]);
  });

  it('every role-restricted operation answers 403 to a wrong role, whatever its input', async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const op of ops) {
      const role = roleOf(op);
      if (!role) continue;
      for (const email of WRONG[role]) {
        checked++;
        const res = await badCall(op, tokens[email] ?? null);
        if (res.statusCode !== 403)
          wrong.push(`${op.method} ${op.path} as ${email} → ${res.statusCode}`);
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(wrong).toEqual([]);
  });
});
