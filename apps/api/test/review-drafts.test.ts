import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  BUILTIN_REPLY_TEMPLATES,
  reviewTemplateJa,
  type ReplyTemplateList,
  type ReplyTemplateView,
  type ReviewDraft,
} from '@tenpo/domain';
import { SANDBOX_LLM } from '../src/config';
import { iso } from '../src/lib/clock';
import { addOtherTenant, buildTestApp, call, json, login, type TestApp } from './helpers';
import { startSandbox, type RunningSandbox } from './sandbox';

/**
 * Reply templates and drafts (issue 25 item 4, ADR 0091): templates of a store and of its
 * agency, the built-in set, drafts from them and from the model (the sandbox's, on a free port),
 * never sent.
 */
let sb: RunningSandbox;
let t: TestApp;
const ids: Record<string, number> = {};
const reviewIds: Record<string, number> = {};
const tokens: Record<string, string> = {};

const id = (email: string) => {
  const v = ids[email];
  if (v === undefined) throw new Error(email);
  return v;
};
const as = async (who: string) => (tokens[who] ??= await login(t.app, `${who}@tenpo.example`));

async function addReview(
  store: string,
  key: string,
  stars: number,
  comment: string | null,
  reviewer = '山田 太郎',
) {
  const now = iso(t.clock.now());
  reviewIds[key] = (
    await t.database.db
      .insertInto('reviews')
      .values({
        store_id: id(store),
        name: `accounts/1/locations/2/reviews/${key}`,
        reviewer_name: reviewer,
        is_anonymous: reviewer === '' ? 1 : 0,
        star_rating: stars,
        comment,
        created_at: now,
        updated_at: now,
        first_seen_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

const templates = async (who: string, store: string) => {
  const res = await call(t.app, {
    method: 'GET',
    url: `/api/reviews/templates?user_id=${id(store)}`,
    token: await as(who),
  });
  expect(res.statusCode, res.body).toBe(200);
  return json<{ data: ReplyTemplateList }>(res).data;
};
const create = async (who: string, payload: Record<string, unknown>) =>
  call(t.app, { method: 'POST', url: '/api/reviews/templates', token: await as(who), payload });
const patch = async (who: string, templateId: number, payload: Record<string, unknown>) =>
  call(t.app, {
    method: 'PATCH',
    url: `/api/reviews/templates/${templateId}`,
    token: await as(who),
    payload,
  });
const remove = async (who: string, templateId: number, store: string) =>
  call(t.app, {
    method: 'DELETE',
    url: `/api/reviews/templates/${templateId}?user_id=${id(store)}`,
    token: await as(who),
  });
const draft = async (who: string, store: string, review: string, source = 'template') =>
  call(t.app, {
    method: 'POST',
    url: `/api/reviews/${reviewIds[review]}/draft`,
    token: await as(who),
    payload: { user_id: id(store), source },
  });
const drafted = async (who: string, store: string, review: string, source = 'template') => {
  const res = await draft(who, store, review, source);
  expect(res.statusCode, res.body).toBe(200);
  return json<{ data: ReviewDraft }>(res).data;
};
const created = async (who: string, payload: Record<string, unknown>) => {
  const res = await create(who, payload);
  expect(res.statusCode, res.body).toBe(200);
  return json<{ data: ReplyTemplateView; message: string }>(res);
};

beforeAll(async () => {
  sb = await startSandbox();
  t = await buildTestApp({
    LLM_BASE_URL: `${sb.url}/llm/v1`,
    LLM_MODEL: SANDBOX_LLM.model,
    LLM_API_KEY: SANDBOX_LLM.apiKey,
  });
  const other = await addOtherTenant(t);
  Object.assign(ids, other.ids);
  for (const u of await t.database.db.selectFrom('users').select(['id', 'email']).execute())
    ids[u.email] = u.id;
  await addReview('shop@tenpo.example', 'low', 1, '料理が冷めていました。');
  await addReview('shop@tenpo.example', 'high', 5, 'とても美味しかったです。');
  await addReview('shop@tenpo.example', 'mid', 3, null, '');
  await addReview('shop@tenpo.example', 'claim', 4, 'sandbox:no1 よかった');
  await addReview('store02@tenpo.example', 'agency-low', 2, '待ち時間が長かった');
  await addReview('other-store@tenpo.example', 'other', 1, '他社の口コミ');
});
afterAll(async () => {
  await t?.close();
  await sb?.close();
});
beforeEach(async () => {
  await sb.control('DELETE', '/faults');
});

describe('GET /api/reviews/templates', () => {
  it('gives a store without templates the built-in set, three a band, and says the model is on', async () => {
    const list = await templates('shop', 'shop@tenpo.example');
    expect(list.llm_enabled).toBe(true);
    expect(list.can_edit_agency).toBe(false);
    expect(list.can_edit).toBe(true);
    // A group leader reads its group's stores' templates; it does not write them.
    const leader = await templates('leader', 'store02@tenpo.example');
    expect(leader).toMatchObject({ can_edit: false, can_edit_agency: false });
    expect(
      (
        await create('leader', {
          user_id: id('store02@tenpo.example'),
          star_band: 'low',
          body: 'x',
        })
      ).statusCode,
    ).toBe(404);
    expect(list.templates.map((x) => x.key)).toEqual(BUILTIN_REPLY_TEMPLATES.map((b) => b.key));
    for (const x of list.templates)
      expect(x).toMatchObject({ id: null, source: 'builtin', editable: false });
  });

  it("answers 404 for another tenant's store", async () => {
    const res = await call(t.app, {
      method: 'GET',
      url: `/api/reviews/templates?user_id=${id('other-store@tenpo.example')}`,
      token: await as('agency'),
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('a store’s own templates', () => {
  it('are added, listed before the built-in ones of other bands, changed and deleted', async () => {
    const made = await created('shop', {
      user_id: id('shop@tenpo.example'),
      star_band: 'low',
      body: '  {store_name}です。ご不便をおかけし申し訳ございません。 ',
      scope: 'store',
    });
    expect(made.message).toBe(reviewTemplateJa.created);
    expect(made.data).toMatchObject({
      star_band: 'low',
      body: '{store_name}です。ご不便をおかけし申し訳ございません。',
      source: 'store',
      editable: true,
    });
    const tid = made.data.id as number;
    let list = await templates('shop', 'shop@tenpo.example');
    const low = list.templates.filter((x) => x.star_band === 'low');
    expect(low.map((x) => x.id)).toEqual([tid]);
    expect(
      list.templates.filter((x) => x.star_band === 'high').every((x) => x.source === 'builtin'),
    ).toBe(true);

    const changed = await patch('shop', tid, {
      user_id: id('shop@tenpo.example'),
      star_band: 'mid',
      body: 'ご意見ありがとうございます。',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(json<{ data: ReplyTemplateView }>(changed).data).toMatchObject({
      star_band: 'mid',
      body: 'ご意見ありがとうございます。',
    });
    list = await templates('shop', 'shop@tenpo.example');
    expect(
      list.templates.filter((x) => x.star_band === 'low').every((x) => x.source === 'builtin'),
    ).toBe(true);
    expect(list.templates.filter((x) => x.star_band === 'mid').map((x) => x.id)).toEqual([tid]);

    const gone = await remove('shop', tid, 'shop@tenpo.example');
    expect(gone.statusCode).toBe(200);
    expect(json<{ message: string; data: { id: number } }>(gone)).toMatchObject({
      message: reviewTemplateJa.deleted,
      data: { id: tid },
    });
    list = await templates('shop', 'shop@tenpo.example');
    expect(list.templates.every((x) => x.source === 'builtin')).toBe(true);
    expect((await remove('shop', tid, 'shop@tenpo.example')).statusCode).toBe(404);
  });

  it.each([
    ['', reviewTemplateJa.bodyRequired],
    ['  ', reviewTemplateJa.bodyRequired],
    ['あ'.repeat(1366), reviewTemplateJa.bodyTooLong],
    ['{name}様、ありがとうございます', reviewTemplateJa.unknownVariables('{name}')],
  ])('a body %j is a 422 on `body` in Japanese', async (body, message) => {
    const res = await create('shop', {
      user_id: id('shop@tenpo.example'),
      star_band: 'high',
      body,
    });
    expect(res.statusCode).toBe(422);
    expect(json<{ errors: Record<string, string[]> }>(res).errors.body).toEqual([message]);
    const none = await call(t.app, {
      method: 'POST',
      url: '/api/reviews/templates',
      token: await as('shop'),
      payload: { user_id: id('shop@tenpo.example'), star_band: 'high' },
    });
    expect(none.statusCode).toBe(422);
    expect(json<{ errors: Record<string, string[]> }>(none).errors.body).toEqual([
      reviewTemplateJa.bodyRequired,
    ]);
  });

  it('an independent shop may not write agency templates (403)', async () => {
    const res = await create('shop', {
      user_id: id('shop@tenpo.example'),
      star_band: 'high',
      body: 'ありがとうございます。',
      scope: 'agency',
    });
    expect(res.statusCode).toBe(403);
    expect(json<{ message: string }>(res).message).toBe(reviewTemplateJa.agencyOnly);
  });
});

describe("an agency's templates", () => {
  let agencyTemplate = 0;
  beforeAll(async () => {
    agencyTemplate = (
      await created('agency', {
        user_id: id('store02@tenpo.example'),
        star_band: 'low',
        body: 'ご迷惑をおかけし、誠に申し訳ございません。{store_name}',
        scope: 'agency',
      })
    ).data.id as number;
  });

  it('serve every store of the agency, after the store’s own; only the agency changes them', async () => {
    for (const store of ['store02@tenpo.example', 'store03@tenpo.example']) {
      const low = (await templates('agency', store)).templates.filter((x) => x.star_band === 'low');
      expect(low).toEqual([
        expect.objectContaining({ id: agencyTemplate, source: 'agency', editable: true }),
      ]);
    }
    expect((await templates('agency', 'store02@tenpo.example')).can_edit_agency).toBe(true);
    const own = await created('store02', {
      user_id: id('store02@tenpo.example'),
      star_band: 'low',
      body: '店舗のお詫びです。',
    });
    const asStore = await templates('store02', 'store02@tenpo.example');
    expect(asStore.can_edit_agency).toBe(false);
    expect(
      asStore.templates.filter((x) => x.star_band === 'low').map((x) => [x.source, x.editable]),
    ).toEqual([
      ['store', true],
      ['agency', false],
    ]);
    const refused = await patch('store02', agencyTemplate, {
      user_id: id('store02@tenpo.example'),
      body: '変更',
    });
    expect(refused.statusCode).toBe(403);
    expect((await remove('store02', agencyTemplate, 'store02@tenpo.example')).statusCode).toBe(403);
    const byAgency = await patch('agency', agencyTemplate, {
      user_id: id('store03@tenpo.example'),
      body: 'ご迷惑をおかけしました。{店舗名}',
    });
    expect(byAgency.statusCode, byAgency.body).toBe(200);
    // The store's own template is the store's: the agency may change it too, as it may the store.
    expect(
      (await remove('agency', own.data.id as number, 'store02@tenpo.example')).statusCode,
    ).toBe(200);
  });

  it("is not another tenant's to read, change or delete (404), nor an independent shop's", async () => {
    expect(
      (
        await patch('other-agency', agencyTemplate, {
          user_id: id('other-store@tenpo.example'),
          body: 'x',
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await remove('other-agency', agencyTemplate, 'other-store@tenpo.example')).statusCode,
    ).toBe(404);
    // Through a store of its own, the demo agency's template is still not there.
    const shopTemplates = (await templates('shop', 'shop@tenpo.example')).templates;
    expect(shopTemplates.map((x) => x.id)).not.toContain(agencyTemplate);
    expect(
      (await patch('shop', agencyTemplate, { user_id: id('shop@tenpo.example'), body: 'x' }))
        .statusCode,
    ).toBe(404);
  });
});

describe('POST /api/reviews/{id}/draft from templates', () => {
  it('renders a template of the review’s band, a different one each time, checked and not sent', async () => {
    const first = await drafted('shop', 'shop@tenpo.example', 'low');
    const second = await drafted('shop', 'shop@tenpo.example', 'low');
    const third = await drafted('shop', 'shop@tenpo.example', 'low');
    for (const d of [first, second, third]) {
      expect(d).toMatchObject({ source: 'template', template_id: null, model: null, findings: [] });
      expect(d.template_key).toMatch(/^builtin\.low\.\d$/);
      expect(d.comment).not.toMatch(/[{}]/);
      expect(d.rule_sets).toContain('personal_data');
    }
    expect(second.template_key).not.toBe(first.template_key);
    expect(third.template_key).not.toBe(second.template_key);
    expect(second.comment).not.toBe(first.comment);
    // Nothing was sent: the review has no reply.
    const row = await t.database.db
      .selectFrom('reviews')
      .select('has_reply')
      .where('id', '=', reviewIds.low ?? 0)
      .executeTakeFirstOrThrow();
    expect(row.has_reply).toBe(0);
  });

  it('fills in the reviewer and the store, and the check warns on the reviewer’s name', async () => {
    const tpl = await created('shop', {
      user_id: id('shop@tenpo.example'),
      star_band: 'high',
      body: '{reviewer_name}、{store_name}をご利用いただきありがとうございます。',
    });
    const d = await drafted('shop', 'shop@tenpo.example', 'high');
    expect(d).toMatchObject({
      template_id: tpl.data.id,
      comment: '山田 太郎様、カフェ テンポ 渋谷店をご利用いただきありがとうございます。',
    });
    expect(d.findings.map((f) => [f.rule_id, f.severity])).toContainEqual([
      'pd.reviewer_name',
      'warn',
    ]);
    // One template only: it is drawn again.
    expect((await drafted('shop', 'shop@tenpo.example', 'high')).template_id).toBe(tpl.data.id);
    await remove('shop', tpl.data.id as number, 'shop@tenpo.example');
  });

  it('an anonymous reviewer is お客様', async () => {
    await created('shop', {
      user_id: id('shop@tenpo.example'),
      star_band: 'mid',
      body: '{お客様名}、ありがとうございます。',
    });
    expect((await drafted('shop', 'shop@tenpo.example', 'mid')).comment).toBe(
      'お客様、ありがとうございます。',
    );
  });

  it("a review of another tenant's store answers 404", async () => {
    expect((await draft('agency', 'store02@tenpo.example', 'other')).statusCode).toBe(404);
    expect((await draft('agency', 'other-store@tenpo.example', 'other')).statusCode).toBe(404);
    expect((await drafted('agency', 'store02@tenpo.example', 'agency-low')).comment).toContain(
      'ご迷惑をおかけしました。',
    );
  });
});

describe('POST /api/reviews/{id}/draft from the model (the sandbox’s)', () => {
  it('asks the model once and returns its reply, checked, naming the model', async () => {
    await sb.control('DELETE', '/control/calls');
    const d = await drafted('shop', 'shop@tenpo.example', 'low', 'llm');
    expect(d).toMatchObject({
      source: 'llm',
      template_id: null,
      template_key: null,
      model: SANDBOX_LLM.model,
      findings: [],
    });
    expect(d.comment).toContain('カフェ テンポ 渋谷店');
    expect(d.comment).toMatch(/申し訳/u);
    const calls = (await (await fetch(`${sb.url}/control/calls`)).json()) as {
      data: Record<string, number>;
    };
    expect(calls.data['POST /llm/v1/chat/completions']).toBe(1);
  });

  it('a forbidden claim in the model’s reply comes back as a blocking finding, nothing sent', async () => {
    const d = await drafted('shop', 'shop@tenpo.example', 'claim', 'llm');
    expect(d.comment).toContain('No.1');
    expect(d.findings.some((f) => f.severity === 'block' && f.rule_id === 'prem.no1')).toBe(true);
  });

  it.each([
    [{ kind: 'rate_limit' }, 503, reviewTemplateJa.llmBusy],
    [{ kind: 'server_error', status: 500 }, 503, reviewTemplateJa.llmFailed],
    [{ kind: 'expired_token' }, 502, reviewTemplateJa.llmRefused],
  ])('a fault %o at the model is a %i in Japanese', async (fault, status, message) => {
    await sb.control('POST', '/faults', { provider: 'llm', ...fault });
    const res = await draft('shop', 'shop@tenpo.example', 'high', 'llm');
    expect(res.statusCode).toBe(status);
    expect(json<{ message: string }>(res).message).toBe(message);
  });
});

describe('with no model configured (LLM_DRAFTS=false)', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await buildTestApp({ LLM_DRAFTS: 'false' });
  });
  afterAll(async () => off?.close());

  it('says so in the templates, answers a model draft 409 in Japanese, and still drafts from templates', async () => {
    const token = await login(off.app, 'shop@tenpo.example');
    const shop = (
      await off.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'shop@tenpo.example')
        .executeTakeFirstOrThrow()
    ).id;
    const now = iso(off.clock.now());
    const review = (
      await off.database.db
        .insertInto('reviews')
        .values({
          store_id: shop,
          name: 'accounts/1/locations/2/reviews/off',
          reviewer_name: '',
          is_anonymous: 1,
          star_rating: 4,
          comment: null,
          created_at: now,
          updated_at: now,
          first_seen_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const list = await call(off.app, {
      method: 'GET',
      url: `/api/reviews/templates?user_id=${shop}`,
      token,
    });
    expect(json<{ data: ReplyTemplateList }>(list).data.llm_enabled).toBe(false);
    const res = await call(off.app, {
      method: 'POST',
      url: `/api/reviews/${review}/draft`,
      token,
      payload: { user_id: shop, source: 'llm' },
    });
    expect(res.statusCode).toBe(409);
    expect(json<{ message: string }>(res).message).toBe(reviewTemplateJa.llmOff);
    const fromTemplate = await call(off.app, {
      method: 'POST',
      url: `/api/reviews/${review}/draft`,
      token,
      payload: { user_id: shop, source: 'template' },
    });
    expect(fromTemplate.statusCode).toBe(200);
    expect(json<{ data: ReviewDraft }>(fromTemplate).data.template_key).toMatch(/^builtin\.high\./);
  });
});
