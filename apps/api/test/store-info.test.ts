import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DAY_HOURS,
  periodsOfRows,
  samePeriods,
  type BasicInformation,
  type DayRow,
} from '@tenpo/domain';
import { createChannels } from '../src/channels';
import { credentialHandle, type Listing } from '../src/channels/channel';
import { createPublisherRepo } from '../src/modules/publisher/publisher.repo';
import {
  createPublisherService,
  type PublisherService,
} from '../src/modules/publisher/publisher.service';
import { buildTestApp, call, json, login, type TestApp } from './helpers';
import { startSandbox, type RunningSandbox } from './sandbox';

/**
 * The store's information (issue 11, ADR 0041): each save reaches Google's listing, in order,
 * within 10 edits a minute, none lost; what Google refuses is said with its field, and Tenpo's
 * copy keeps what the user typed. What Google holds is read on the sandbox's side.
 */
let sb: RunningSandbox;
let t: TestApp;
let reader: PublisherService;
let shop: number;
let token: string;
const quiet = { warn: () => undefined };

/** Google's listing as the sandbox holds it, read with the shop's grant. */
const atGoogle = (): Promise<Listing> =>
  reader.registry
    .require('google_my_business', 'editLocation')
    .readListing(credentialHandle(shop, 'google_my_business'));

const calls = async (): Promise<Record<string, number>> =>
  ((await (await fetch(`${sb.url}/control/calls`)).json()) as { data: Record<string, number> })
    .data;
const countCalls = async (re: RegExp): Promise<number> =>
  Object.entries(await calls())
    .filter(([k]) => re.test(k))
    .reduce((n, [, v]) => n + v, 0);
/** Checks (validateOnly) Google answered: the sandbox counts them apart (ADR 0061). */
const validations = (): Promise<number> => countCalls(/^VALIDATE v1\/locations\/[^/]+$/);
/** Edits Google took (PATCHes less the validateOnly checks). */
const patches = async (): Promise<number> =>
  (await countCalls(/^PATCH .*\/v1\/locations\/[^/]+$/)) - (await validations());

const put = (path: string, body: object) =>
  call(t.app, {
    method: 'PUT',
    url: `/api/entity/${path}`,
    token,
    payload: { user_id: shop, ...body },
  });
const read = async (): Promise<BasicInformation> => {
  const res = await call(t.app, {
    method: 'GET',
    url: `/api/entity/basic-information?user_id=${shop}`,
    token,
  });
  expect(res.statusCode, res.body).toBe(200);
  return json<{ data: BasicInformation }>(res).data;
};

/** Runs every job that is due now (a job waiting for the rate limit's window stays). */
async function drain(): Promise<void> {
  for (let i = 0; i < 20; i++) if ((await t.app.queue.drain()) === 0) return;
}
/** Moves Tenpo's clock and Google's together. */
const advance = async (ms: number) => {
  t.clock.advance(ms);
  await sb.control('POST', '/control/clock', { advance_seconds: ms / 1000 });
};

const core = (over: object = {}) => ({
  name: 'カフェ テンポ 渋谷',
  postal_code: '150-0002',
  prefecture: '東京都',
  locality: '渋谷区',
  address1: '渋谷2-21-1',
  address2: 'ヒカリエ 8F',
  main_phone: '+81334567890',
  ...over,
});

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb?.close();
});
beforeEach(async () => {
  await sb.control('DELETE', '/faults');
  await sb.control('POST', '/control/reset', {});
  await sb.control('POST', '/control/clock', { reset: true });
  await t?.close();
  t = await buildTestApp({ SANDBOX_URL: sb.url });
  reader = createPublisherService({
    repo: createPublisherRepo(t.database.db),
    channels: createChannels(t.config, t.clock),
    clock: t.clock,
    secretKey: t.config.secretKey,
    publicUrl: t.config.publicUrl,
    isAgencyPrefix: async () => false,
    log: quiet,
  });
  shop = (
    await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'shop@tenpo.example')
      .executeTakeFirstOrThrow()
  ).id;
  token = await login(t.app, 'shop@tenpo.example');
  await fetch(`${sb.url}/control/calls`, { method: 'DELETE' });
});
afterAll(async () => {
  await t?.close();
});

describe('the store information reaches Google: every field, in order, once', () => {
  it('hours: a second interval on Monday and Sunday closed are exactly the periods Google holds', async () => {
    const before = await read();
    expect(before.core_information.name).toBe((await atGoogle()).title);
    const rows: DayRow[] = [
      { day: 'MONDAY', type: DAY_HOURS.OPEN, open: '09:00', close: '12:00' },
      { day: 'MONDAY', type: DAY_HOURS.OPEN, open: '13:00', close: '18:30' },
      { day: 'TUESDAY', type: DAY_HOURS.OPEN, open: '10:00', close: '19:00' },
      { day: 'WEDNESDAY', type: DAY_HOURS.ALL_DAYS, open: '', close: '' },
      { day: 'THURSDAY', type: DAY_HOURS.OPEN, open: '18:00', close: '02:00' },
      { day: 'FRIDAY', type: DAY_HOURS.OPEN, open: '10:00', close: '19:00' },
      { day: 'SATURDAY', type: DAY_HOURS.OPEN, open: '10:00', close: '17:00' },
      { day: 'SUNDAY', type: DAY_HOURS.CLOSED, open: '', close: '' },
    ];
    const periods = periodsOfRows(rows);
    const res = await put('business-details', {
      description: '自家焙煎のコーヒーと季節のケーキ。',
      hours: JSON.stringify(periods),
      temporarily_closed: false,
      payment_options: ['cash', 'paypay'],
      price_range: '$$',
    });
    expect(res.statusCode, res.body).toBe(200);
    const saved = json<{ message: string; data: BasicInformation }>(res);
    expect(saved.message).toBe('項目が正常に更新される');
    expect(saved.data.google_sync.pending).toBe(1);
    expect(saved.data.business_details?.payment_options.map((o) => o.text)).toEqual([
      '現金',
      'PayPay',
    ]);

    await drain();
    const g = await atGoogle();
    expect(samePeriods(g.regularHours as never, periods)).toBe(true);
    expect(g.regularHours.some((p) => p.openDay === 'SUNDAY')).toBe(false);
    expect(g.regularHours.filter((p) => p.openDay === 'MONDAY')).toHaveLength(2);
    expect(g.description).toBe('自家焙煎のコーヒーと季節のケーキ。');
    const after = await read();
    expect(after.google_sync).toMatchObject({ pending: 0, refused: [] });
    expect(after.google_sync.last_sent_at).not.toBeNull();
  });

  it('core information and contacts: title, address, phone, categories and website at Google; e-mails and the marker stay Tenpo’s', async () => {
    const res = await put(
      'basic-information',
      core({
        primary_category_id: 'categories/gcid:cafe',
        primary_category_name: 'カフェ',
        additional_categorie_id: ['categories/gcid:coffee_shop'],
        additional_categorie_name: ['コーヒーショップ'],
        latitude: 35.659,
        longitude: 139.7037,
        corporate_code: '1234567890123',
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const contacts = await put('contact-websites-apps', {
      email: '["info@tenpo-cafe.example","shop@tenpo-cafe.example"]',
      website_url: 'https://tenpo-cafe.example/shibuya',
    });
    expect(contacts.statusCode, contacts.body).toBe(200);
    await drain();
    const g = await atGoogle();
    expect(g.title).toBe('カフェ テンポ 渋谷');
    expect(g.storefrontAddress).toMatchObject({
      postalCode: '150-0002',
      administrativeArea: '東京都',
      locality: '渋谷区',
      addressLines: ['渋谷2-21-1', 'ヒカリエ 8F'],
    });
    expect(g.phoneNumbers.primaryPhone).toBe('+81334567890');
    expect(g.categories.primaryCategory?.name).toBe('categories/gcid:cafe');
    expect(g.categories.additionalCategories.map((c) => c.name)).toEqual([
      'categories/gcid:coffee_shop',
    ]);
    expect(g.websiteUri).toBe('https://tenpo-cafe.example/shibuya');
    const info = await read();
    expect(info.core_information).toMatchObject({
      map_marker: { latitude: 35.659, longitude: 139.7037 },
      corporate_code: '1234567890123',
    });
    expect(info.contact_website_apps.email).toEqual([
      'info@tenpo-cafe.example',
      'shop@tenpo-cafe.example',
    ]);
  });

  it('11 saves in one minute reach Google as 10, then 1 after the window; none lost, in order', async () => {
    for (let i = 1; i <= 11; i++) {
      const res = await put('basic-information', core({ name: `カフェ テンポ ${i}` }));
      expect(res.statusCode, res.body).toBe(200);
    }
    await drain();
    expect(await patches()).toBe(10);
    expect((await atGoogle()).title).toBe('カフェ テンポ 10');
    expect((await read()).google_sync.pending).toBe(1);

    await advance(61_000);
    await drain();
    expect(await patches()).toBe(11);
    expect((await atGoogle()).title).toBe('カフェ テンポ 11');
    expect((await read()).google_sync.pending).toBe(0);
  });

  it('two senders at once send each edit once and in order (one sender a store)', async () => {
    await put('basic-information', core({ name: '一番目' }));
    await put('basic-information', core({ name: '二番目' }));
    // Google answers the first edit slowly: a second sender arrives while it is on its way.
    await sb.control('POST', '/faults', {
      provider: 'google',
      kind: 'slow',
      delay_ms: 1500,
      method: 'PATCH',
      remaining: 1,
    });
    const first = t.app.storeInfo.sendNext(shop);
    await new Promise((r) => setTimeout(r, 400));
    const second = await t.app.storeInfo.sendNext(shop);
    expect(second.state).toBe('wait');
    expect((await first).state).toBe('sent');
    expect(await patches()).toBe(1);
    expect((await atGoogle()).title).toBe('一番目');
    await t.app.storeInfo.sendNext(shop);
    expect(await patches()).toBe(2);
    expect((await atGoogle()).title).toBe('二番目');
  });
});

describe('the store information reaches Google: refusals, and changes made at Google', () => {
  it('a field Google would refuse is refused at save (validateOnly), in Japanese under its field, and nothing is queued', async () => {
    const before = await read();
    const res = await put(
      'basic-information',
      core({ primary_category_id: 'categories/gcid:no_such_category' }),
    );
    expect(res.statusCode, res.body).toBe(422);
    expect(json<{ message: string; errors: Record<string, string[]> }>(res)).toMatchObject({
      message:
        'Google が次の項目を受け付けませんでした: メインカテゴリ。内容を確認して保存し直してください。',
      errors: { primary_category: ['Google がこの項目を受け付けませんでした。'] },
    });
    const after = await read();
    expect(after.core_information).toEqual(before.core_information);
    expect(after.google_sync.pending).toBe(0);
    // At the far end: one check, no edit.
    expect(await validations()).toBe(1);
    expect(await patches()).toBe(0);
  });

  it('an empty phone where Google holds one is refused before queuing (primaryPhone is required)', async () => {
    const res = await put('basic-information', core({ main_phone: null }));
    expect(res.statusCode, res.body).toBe(422);
    expect(json<{ errors: Record<string, string[]> }>(res).errors.main_phone).toEqual([
      'Google に登録済みの電話番号は空にできません。電話番号を入力してください。',
    ]);
    expect((await read()).google_sync.pending).toBe(0);
    expect(await patches()).toBe(0);
  });

  it('a field Google refuses is named, later edits still go, and the copy keeps what was typed', async () => {
    // Google could not be asked at save (its check failed three times): the edit is queued.
    await sb.control('POST', '/faults', {
      provider: 'google',
      kind: 'server_error',
      status: 503,
      method: 'PATCH',
      path: '/locations/',
      remaining: 3,
    });
    const res = await put(
      'basic-information',
      core({ primary_category_id: 'categories/gcid:no_such_category' }),
    );
    expect(res.statusCode, res.body).toBe(200);
    await put('contact-websites-apps', { website_url: 'https://tenpo-cafe.example/' });
    await drain();
    const info = await read();
    expect(info.core_information.primary_category?.name).toBe('categories/gcid:no_such_category');
    expect(info.google_sync.refused).toHaveLength(1);
    expect(info.google_sync.refused[0]).toMatchObject({
      section: 'core',
      fields: ['メインカテゴリ'],
    });
    expect(info.google_sync.refused[0]?.message).toContain('メインカテゴリ');
    expect((await atGoogle()).websiteUri).toBe('https://tenpo-cafe.example/');
    // A later core save Google takes clears the refusal.
    await put('basic-information', core({ primary_category_id: 'categories/gcid:cafe' }));
    await drain();
    expect((await read()).google_sync.refused).toEqual([]);
  });

  it('a change made on Google’s side is read back once the copy is stale, unless a save is on its way', async () => {
    await read();
    const edit = reader.registry.require('google_my_business', 'editLocation');
    await edit.editLocation(credentialHandle(shop, 'google_my_business'), {
      profile: { description: 'Google 側で変更' },
    });
    expect((await read()).business_details?.description).not.toBe('Google 側で変更');
    t.clock.advance(6 * 60_000);
    expect((await read()).business_details?.description).toBe('Google 側で変更');

    // The connection screen's sync reads it at once; a section with a save on its way keeps it.
    await edit.editLocation(credentialHandle(shop, 'google_my_business'), {
      websiteUri: 'https://changed-at-google.example/',
      profile: { description: 'もう一度 Google 側で変更' },
    });
    await put('business-details', { description: 'Tenpo で保存', hours: '[]' });
    const synced = await call(t.app, {
      method: 'POST',
      url: '/api/publisher/google-my-business/sync',
      token,
      payload: { user_id: shop },
    });
    expect(synced.statusCode, synced.body).toBe(200);
    const after = await read();
    expect(after.contact_website_apps.website_url.url).toBe('https://changed-at-google.example/');
    expect(after.business_details?.description).toBe('Tenpo で保存');
    await drain();
    expect((await atGoogle()).description).toBe('Tenpo で保存');
  });
});

describe('what Google shows instead of what the store saved (getGoogleUpdated, ADR 0061)', () => {
  const SHIBUYA = '4821390157204861230';
  const review = (body: object) =>
    sb.control('POST', '/control/google/listing-review', { location_id: SHIBUYA, ...body });
  const choose = (choice: 'accept' | 'resend') =>
    call(t.app, {
      method: 'POST',
      url: '/api/entity/google-version',
      token,
      payload: { user_id: shop, choice },
    });
  /** Google's own version as the sandbox serves it, read with the shop's grant. */
  const googleVersion = () =>
    reader.registry.require('google_my_business', 'editLocation').providerVersion!(
      credentialHandle(shop, 'google_my_business'),
    );

  it('Google overriding a field after an edit is shown with both values; accepting takes Google’s', async () => {
    await review({ override: { title: 'Cafe Tenpo Shibuya' } });
    expect((await put('basic-information', core({ name: 'テンポ 渋谷' }))).statusCode).toBe(200);
    await drain();
    const info = await read();
    expect(info.google_sync.google_version?.changed).toEqual([
      { field: 'title', label: 'ビジネス名', ours: 'テンポ 渋谷', google: 'Cafe Tenpo Shibuya' },
    ]);
    expect(info.core_information.name).toBe('テンポ 渋谷');

    const res = await choose('accept');
    expect(res.statusCode, res.body).toBe(200);
    expect(json<{ message: string }>(res).message).toBe(
      'Google の表示内容を店舗情報に反映しました。',
    );
    await drain();
    const after = await read();
    expect(after.core_information.name).toBe('Cafe Tenpo Shibuya');
    expect(after.google_sync.google_version ?? null).toBeNull();
    // At the far end: the store's listing now says what Google shows; no difference left.
    expect((await atGoogle()).title).toBe('Cafe Tenpo Shibuya');
    expect((await googleVersion()).changed).toEqual([]);
  });

  it('sending ours again re-sends the store’s value; once Google stops overriding, the notice goes', async () => {
    await review({ override: { websiteUri: 'https://google-found.example/' } });
    await put('contact-websites-apps', { website_url: 'https://tenpo-cafe.example/' });
    await drain();
    expect((await read()).google_sync.google_version?.changed).toEqual([
      {
        field: 'websiteUri',
        label: 'ウェブサイト',
        ours: 'https://tenpo-cafe.example/',
        google: 'https://google-found.example/',
      },
    ]);
    const sent = await patches();
    await review({ clear: true });
    const res = await choose('resend');
    expect(res.statusCode, res.body).toBe(200);
    await drain();
    expect(await patches()).toBe(sent + 1);
    const after = await read();
    expect(after.contact_website_apps.website_url.url).toBe('https://tenpo-cafe.example/');
    expect(after.google_sync.google_version ?? null).toBeNull();
    expect((await atGoogle()).websiteUri).toBe('https://tenpo-cafe.example/');
  });

  it('edits Google holds for review are said to be pending until Google releases them', async () => {
    await review({ hold_pending: true });
    await put('business-details', { description: '審査待ちの説明', hours: '[]' });
    await drain();
    expect((await read()).google_sync.google_version).toMatchObject({
      changed: [],
      pending: ['ビジネスの説明', '営業時間'],
    });
    await review({ release: true });
    t.clock.advance(6 * 60_000);
    expect((await read()).google_sync.google_version ?? null).toBeNull();
  });

  it('with nothing to settle, a choice is refused in Japanese', async () => {
    const res = await choose('accept');
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('Google が変更した項目はありません。');
  });
});

describe('bad input is refused in Japanese and nothing saved changes', () => {
  it.each([
    ['business-details', { hours: '[{"openDay":' }, '営業時間の形式が正しくありません。'],
    ['business-details', { hours: '[{"openDay":"FUNDAY"}]' }, ''],
    ['contact-websites-apps', { email: '["not-an-email"]' }, 'メールアドレスが正しくありません。'],
    ['contact-websites-apps', { website_url: 'javascript:alert(1)' }, 'urlのみ入力してください。'],
    ['basic-information', core({ name: 'Entity' }), 'ビジネス名 を入力してください。'],
    ['basic-information', core({ address2: '' }), '建物名・部屋番号 を入力してください。'],
  ])('%s %j → 422', async (path, body, message) => {
    const before = await read();
    const res = await put(path, body);
    expect(res.statusCode, res.body).toBe(422);
    if (message) expect(res.body).toContain(message);
    const after = await read();
    expect(after.core_information).toEqual(before.core_information);
    expect(after.business_details).toEqual(before.business_details);
    expect(after.contact_website_apps).toEqual(before.contact_website_apps);
    expect(after.google_sync.pending).toBe(0);
  });

  it('a store not connected to Google answers 409 in Japanese', async () => {
    const agency = await login(t.app, 'agency@tenpo.example');
    const other = (
      await t.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'store04@tenpo.example')
        .executeTakeFirstOrThrow()
    ).id;
    const res = await call(t.app, {
      method: 'PUT',
      url: '/api/entity/contact-websites-apps',
      token: agency,
      payload: { user_id: other, website_url: 'https://a.example' },
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.body).toContain('Google');
  });
});
