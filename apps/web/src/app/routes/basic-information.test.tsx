import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BasicInformation } from '@tenpo/domain';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  fail,
  mockApi,
  ok,
  renderAt,
  resetState,
  signIn,
  type MockRequest,
} from '../../test/render';

const info = (over: Partial<BasicInformation> = {}): BasicInformation => ({
  core_information: {
    id: '4821390157204861230',
    name: 'カフェ テンポ 渋谷店',
    primary_category: { name: 'categories/gcid:cafe', displayName: 'カフェ' },
    additional_categories: [
      { name: 'categories/gcid:coffee_shop', displayName: 'コーヒーショップ' },
    ],
    address: {
      postalCode: '150-0002',
      administrativeArea: '東京都',
      locality: '渋谷区',
      address1: '渋谷2-21-1',
      address2: '渋谷ヒカリエ 6F',
      address3: null,
      regionCode: 'JP',
    },
    map_marker: null,
    main_phone: '+81364182201',
    corporate_code: null,
  },
  contact_website_apps: {
    email: ['info@cafe.example'],
    website_url: { url: 'https://cafe.example' },
  },
  business_details: {
    description: '自家焙煎のカフェ',
    hours: [
      { openDay: 'MONDAY', closeDay: 'MONDAY', openTime: { hours: 9 }, closeTime: { hours: 18 } },
      { openDay: 'TUESDAY', closeDay: 'TUESDAY', openTime: {}, closeTime: { hours: 24 } },
    ],
    temporarily_closed_hours: { dateOff: false },
    additional_hours_text: null,
    payment_options: [],
    price_range: null,
    impressum: null,
    pickup_and_delivery_services: [],
    neighborhood: null,
  },
  google_sync: { pending: 0, next_send_at: null, last_sent_at: null, refused: [], pulled_at: null },
  ...over,
});

/** The form's choice lists and lookups (GET /entity/prefectures, /entity/categories, /postal-code). */
const lookups = {
  'GET /entity/prefectures': ok([
    { region_code: 'JP', code: '13', name: '東京都' },
    { region_code: 'JP', code: '27', name: '大阪府' },
  ]),
  'GET /entity/categories': ok([
    { name: 'categories/gcid:cafe', displayName: 'カフェ' },
    { name: 'categories/gcid:coffee_shop', displayName: 'コーヒーショップ' },
    { name: 'categories/gcid:bakery', displayName: 'ベーカリー' },
  ]),
};

const saves = (calls: MockRequest[], path: string) =>
  calls.filter((c) => c.method === 'PUT' && c.path === `/entity/${path}`);

beforeEach(resetState);

describe('/basic-information: the forms and the hours as saved', () => {
  it('shows the three forms of the store: hours as seven days, closed where Google has none', async () => {
    mockApi({ ...lookups, 'GET /entity/basic-information': ok(info()) });
    signIn();
    renderAt('/basic-information');
    const core = await screen.findByRole('form', { name: '基本情報' });
    expect(within(core).getByRole('textbox', { name: /ビジネス名/ })).toHaveValue(
      'カフェ テンポ 渋谷店',
    );
    // Google's E.164 read as a Japanese number.
    expect(within(core).getByRole('textbox', { name: '電話番号' })).toHaveValue('03-6418-2201');
    const details = screen.getByRole('form', { name: 'ビジネス情報' });
    expect(within(details).getByRole('checkbox', { name: '営業時間を指定する' })).toBeChecked();
    expect(within(details).getByRole('combobox', { name: '月曜日の営業区分' })).toHaveValue('営業');
    expect(within(details).getByRole('textbox', { name: '月曜日の開店' })).toHaveValue('09:00');
    expect(within(details).getByRole('combobox', { name: '火曜日の営業区分' })).toHaveValue(
      '24時間営業',
    );
    expect(within(details).getByRole('combobox', { name: '日曜日の営業区分' })).toHaveValue(
      '定休日',
    );
    expect(screen.getByRole('link', { name: '画像を追加' })).toHaveAttribute('href', '/media');
    expect(document.title).toContain('基本情報');
  });

  it('saves the hours as JSON text of periods, an extra interval included and closed days left out', async () => {
    const { calls } = mockApi({
      ...lookups,
      'GET /entity/basic-information': ok(info()),
      'PUT /entity/business-details': ok(
        info({
          google_sync: {
            pending: 1,
            next_send_at: null,
            last_sent_at: null,
            refused: [],
            pulled_at: null,
          },
        }),
        '項目が正常に更新される',
      ),
    });
    signIn();
    renderAt('/basic-information');
    const details = await screen.findByRole('form', { name: 'ビジネス情報' });
    await userEvent.click(within(details).getByRole('button', { name: '月曜日に時間帯を追加' }));
    await userEvent.click(within(details).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(saves(calls, 'business-details')).toHaveLength(1));
    const body = saves(calls, 'business-details')[0]?.body as {
      hours: string;
      description: string;
    };
    expect(body.description).toBe('自家焙煎のカフェ');
    expect(JSON.parse(body.hours)).toEqual([
      { openDay: 'MONDAY', closeDay: 'MONDAY', openTime: { hours: 9 }, closeTime: { hours: 18 } },
      {
        openDay: 'MONDAY',
        closeDay: 'MONDAY',
        openTime: { hours: 18 },
        closeTime: { hours: 23, minutes: 45 },
      },
      { openDay: 'TUESDAY', closeDay: 'TUESDAY', openTime: {}, closeTime: { hours: 24 } },
    ]);
    expect(await screen.findByText('項目が正常に更新される')).toBeInTheDocument();
    expect(await screen.findByText(/Google への反映待ち: 1 件/)).toBeInTheDocument();
  });
});

describe('/basic-information: editing the hours', () => {
  it('asks before changed hours are left unsaved (another screen, a reload); after the save it lets the user go', async () => {
    mockApi({
      ...lookups,
      'GET /entity/basic-information': ok(info()),
      'PUT /entity/business-details': ok(info(), '項目が正常に更新される'),
    });
    signIn();
    const { router } = renderAt('/basic-information');
    const details = await screen.findByRole('form', { name: 'ビジネス情報' });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const unloadAsks = () => {
      const e = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(e);
      return e.defaultPrevented;
    };
    // Unchanged: nothing to ask.
    expect(unloadAsks()).toBe(false);
    await userEvent.click(within(details).getByRole('button', { name: '月曜日に時間帯を追加' }));
    expect(unloadAsks()).toBe(true);
    await router.navigate('/facebook-terms-and-privacy');
    await waitFor(() =>
      expect(confirm).toHaveBeenCalledWith(expect.stringMatching(/保存されていない変更/)),
    );
    expect(router.state.location.pathname).toBe('/basic-information');
    // Saved: what was sent is the new starting point, and leaving asks nothing.
    await userEvent.click(within(details).getByRole('button', { name: '保存' }));
    expect(await screen.findByText('項目が正常に更新される')).toBeInTheDocument();
    await waitFor(() => expect(unloadAsks()).toBe(false));
    confirm.mockClear();
    await router.navigate('/facebook-terms-and-privacy');
    await waitFor(() => expect(router.state.location.pathname).toBe('/facebook-terms-and-privacy'));
    expect(confirm).not.toHaveBeenCalled();
    confirm.mockRestore();
  });

  it('a typed time stays in the field (Enter and Tab save nothing); only the save button sends it', async () => {
    const { calls } = mockApi({
      ...lookups,
      'GET /entity/basic-information': ok(info()),
      'PUT /entity/business-details': ok(info()),
    });
    signIn();
    renderAt('/basic-information');
    const details = await screen.findByRole('form', { name: 'ビジネス情報' });
    const open = within(details).getByRole('textbox', { name: '月曜日の開店' });
    await userEvent.clear(open);
    await userEvent.type(open, '10:15{Enter}');
    expect(open).toHaveValue('10:15');
    // A save would be under way by now (the form's submit sends at once).
    await new Promise((r) => setTimeout(r, 50));
    expect(saves(calls, 'business-details')).toHaveLength(0);
    const close = within(details).getByRole('textbox', { name: '月曜日の閉店' });
    await userEvent.clear(close);
    await userEvent.type(close, '1930');
    await userEvent.tab();
    expect(close).toHaveValue('19:30');
    expect(open).toHaveValue('10:15');
    // Minutes off the 15-minute grid go to the nearest quarter hour, and the screen says so.
    const tuesday = within(details).getByRole('combobox', { name: '火曜日の営業区分' });
    await userEvent.click(tuesday);
    await userEvent.click(await screen.findByRole('option', { name: '営業' }));
    const tueOpen = within(details).getByRole('textbox', { name: '火曜日の開店' });
    await userEvent.clear(tueOpen);
    await userEvent.type(tueOpen, '9:08{Enter}');
    expect(tueOpen).toHaveValue('09:15');
    expect(within(details).getByText('9:08 は 15 分単位の 09:15 にしました。')).toBeInTheDocument();
    // What cannot be read as a time is refused and the field keeps its time.
    const tueClose = within(details).getByRole('textbox', { name: '火曜日の閉店' });
    await userEvent.clear(tueClose);
    await userEvent.type(tueClose, '25:00');
    await userEvent.tab();
    expect(tueClose).toHaveValue('00:00');
    expect(within(details).getByText(/「25:00」は時刻として読めません/)).toBeInTheDocument();
    expect(within(details).getByText('9:08 は 15 分単位の 09:15 にしました。')).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 50));
    expect(saves(calls, 'business-details')).toHaveLength(0);

    await userEvent.click(within(details).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(saves(calls, 'business-details')).toHaveLength(1));
    expect(
      JSON.parse((saves(calls, 'business-details')[0]?.body as { hours: string }).hours),
    ).toEqual([
      {
        openDay: 'MONDAY',
        closeDay: 'MONDAY',
        openTime: { hours: 10, minutes: 15 },
        closeTime: { hours: 19, minutes: 30 },
      },
      {
        openDay: 'TUESDAY',
        closeDay: 'TUESDAY',
        openTime: { hours: 9, minutes: 15 },
        closeTime: { hours: 24 },
      },
    ]);
  });

  it('without "specify hours" an empty list is sent (spec 2 §4)', async () => {
    const { calls } = mockApi({
      ...lookups,
      'GET /entity/basic-information': ok(info()),
      'PUT /entity/business-details': ok(info()),
    });
    signIn();
    renderAt('/basic-information');
    const details = await screen.findByRole('form', { name: 'ビジネス情報' });
    await userEvent.click(within(details).getByRole('checkbox', { name: '営業時間を指定する' }));
    expect(within(details).queryByRole('combobox', { name: '月曜日の営業区分' })).toBeNull();
    await userEvent.click(within(details).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(saves(calls, 'business-details')).toHaveLength(1));
    expect((saves(calls, 'business-details')[0]?.body as { hours: string }).hours).toBe('[]');
  });
});

describe('/basic-information: core information and contacts', () => {
  it('core information: "Entity" is empty and required; the phone goes as an international number', async () => {
    const { calls } = mockApi({
      ...lookups,
      'GET /entity/basic-information': ok(
        info({ core_information: { ...info().core_information, name: 'Entity' } }),
      ),
      'PUT /entity/basic-information': ok(info()),
    });
    signIn();
    renderAt('/basic-information');
    const core = await screen.findByRole('form', { name: '基本情報' });
    const name = within(core).getByRole('textbox', { name: /ビジネス名/ });
    expect(name).toHaveValue('');
    await userEvent.click(within(core).getByRole('button', { name: '保存' }));
    expect(await within(core).findByText('ビジネス名 を入力してください。')).toBeInTheDocument();
    expect(saves(calls, 'basic-information')).toHaveLength(0);

    await userEvent.type(name, 'カフェ テンポ');
    const phone = within(core).getByRole('textbox', { name: '電話番号' });
    await userEvent.clear(phone);
    await userEvent.type(phone, '03-1234-5678');
    await userEvent.click(within(core).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(saves(calls, 'basic-information')).toHaveLength(1));
    expect(saves(calls, 'basic-information')[0]?.body).toMatchObject({
      name: 'カフェ テンポ',
      main_phone: '+81312345678',
      primary_category_id: 'categories/gcid:cafe',
      additional_categorie_id: ['categories/gcid:coffee_shop'],
      additional_categorie_name: ['コーヒーショップ'],
    });

    await userEvent.clear(phone);
    await userEvent.type(phone, '12');
    await userEvent.click(within(core).getByRole('button', { name: '保存' }));
    expect(await within(core).findByText('電話番号の形式が正しくありません。')).toBeInTheDocument();
    expect(saves(calls, 'basic-information')).toHaveLength(1);
  });

  it('contacts: an invalid e-mail and a website without http(s) are refused before sending', async () => {
    const { calls } = mockApi({
      ...lookups,
      'GET /entity/basic-information': ok(info()),
      'PUT /entity/contact-websites-apps': ok(info()),
    });
    signIn();
    renderAt('/basic-information');
    const form = await screen.findByRole('form', { name: '連絡先・ウェブサイト' });
    await userEvent.click(within(form).getByRole('button', { name: 'メールアドレスを追加' }));
    await userEvent.type(
      within(form).getByRole('textbox', { name: 'メールアドレス 2' }),
      'not-mail',
    );
    const site = within(form).getByRole('textbox', { name: 'ウェブサイト' });
    await userEvent.clear(site);
    await userEvent.type(site, 'ftp://cafe.example');
    await userEvent.click(within(form).getByRole('button', { name: '保存' }));
    expect(await within(form).findByText('メールアドレスが正しくありません。')).toBeInTheDocument();
    expect(within(form).getByText('urlのみ入力してください。')).toBeInTheDocument();
    expect(saves(calls, 'contact-websites-apps')).toHaveLength(0);

    await userEvent.clear(within(form).getByRole('textbox', { name: 'メールアドレス 2' }));
    await userEvent.type(
      within(form).getByRole('textbox', { name: 'メールアドレス 2' }),
      'shop@cafe.example',
    );
    await userEvent.clear(site);
    await userEvent.type(site, 'https://cafe.example/new');
    await userEvent.click(within(form).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(saves(calls, 'contact-websites-apps')).toHaveLength(1));
    expect(saves(calls, 'contact-websites-apps')[0]?.body).toMatchObject({
      email: '["info@cafe.example","shop@cafe.example"]',
      website_url: 'https://cafe.example/new',
    });
  });
});

describe("/basic-information: Google's version, refusals and lookups", () => {
  it("what Google shows instead of the store's save is shown with both values; accepting sends the choice", async () => {
    const sync = {
      pending: 0,
      next_send_at: null,
      last_sent_at: '2026-11-25T00:00:00Z',
      pulled_at: null,
      refused: [],
    };
    const { calls } = mockApi({
      ...lookups,
      'GET /entity/basic-information': ok(
        info({
          google_sync: {
            ...sync,
            google_version: {
              checked_at: '2026-11-25T00:00:00Z',
              changed: [
                {
                  field: 'title',
                  label: 'ビジネス名',
                  ours: 'テンポ 渋谷',
                  google: 'Cafe Tenpo Shibuya',
                },
              ],
              pending: ['ビジネスの説明'],
            },
          },
        }),
      ),
      'POST /entity/google-version': ok(
        info({ google_sync: { ...sync, google_version: null } }),
        'Google の表示内容を店舗情報に反映しました。',
      ),
    });
    signIn();
    renderAt('/basic-information');
    const notice = await screen.findByTestId('google-changed');
    expect(notice).toHaveTextContent('Google が保存内容と異なる情報を表示しています');
    const row = within(notice).getByRole('row', { name: /ビジネス名/ });
    expect(row).toHaveTextContent('テンポ 渋谷');
    expect(row).toHaveTextContent('Cafe Tenpo Shibuya');
    expect(
      screen.getByText(/次の項目は Google の審査が終わるまで.*ビジネスの説明/),
    ).toBeInTheDocument();
    await userEvent.click(within(notice).getByRole('button', { name: 'Google の表示内容を採用' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/entity/google-version')).toHaveLength(1),
    );
    expect(calls.find((c) => c.path === '/entity/google-version')?.body).toMatchObject({
      choice: 'accept',
    });
    await waitFor(() => expect(screen.queryByTestId('google-changed')).toBeNull());
  });

  it('a server refusal shows its errors and keeps what was typed; Google refusals are named', async () => {
    mockApi({
      ...lookups,
      'GET /entity/basic-information': ok(
        info({
          google_sync: {
            pending: 0,
            next_send_at: null,
            last_sent_at: null,
            pulled_at: null,
            refused: [
              {
                section: 'core',
                at: '2026-11-25T00:00:00Z',
                message: 'Google が次の項目を受け付けませんでした: メインカテゴリ。',
                fields: ['メインカテゴリ'],
              },
            ],
          },
        }),
      ),
      'PUT /entity/contact-websites-apps': fail(422, {
        website_url: ['urlのみ入力してください。'],
      }),
    });
    signIn();
    renderAt('/basic-information');
    expect(
      await screen.findByText('Google が次の項目を受け付けませんでした: メインカテゴリ。'),
    ).toBeInTheDocument();
    const form = screen.getByRole('form', { name: '連絡先・ウェブサイト' });
    const site = within(form).getByRole('textbox', { name: 'ウェブサイト' });
    await userEvent.clear(site);
    await userEvent.type(site, 'https://cafe.example/typed');
    await userEvent.click(within(form).getByRole('button', { name: '保存' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('urlのみ入力してください。');
    expect(site).toHaveValue('https://cafe.example/typed');
  });

  it('the postal-code lookup fills the address and moves the map marker; categories come from Google', async () => {
    const { calls } = mockApi({
      ...lookups,
      'GET /entity/basic-information': ok(info()),
      'GET /postal-code/0600001': ok({
        data: {
          postal_code: '0600001',
          prefecture_code: '01',
          prefecture: '北海道',
          city_code: '01101',
          city: '札幌市中央区',
          town: '北一条西',
          zip_lat: 43.06,
          zip_lng: 141.35,
          coordinate_level: 'municipality',
          addresses: [],
        },
      }),
      'PUT /entity/basic-information': ok(info()),
    });
    signIn();
    renderAt('/basic-information');
    const core = await screen.findByRole('form', { name: '基本情報' });
    const postal = within(core).getByRole('textbox', { name: /郵便番号/ });
    await userEvent.clear(postal);
    await userEvent.type(postal, '060-0001');
    await userEvent.click(within(core).getByRole('button', { name: '住所を検索' }));
    await waitFor(() =>
      expect(within(core).getByRole('textbox', { name: '市区町村' })).toHaveValue('札幌市中央区'),
    );
    expect(within(core).getByRole('textbox', { name: /番地/ })).toHaveValue('北一条西');
    expect(await within(core).findByText(/43\.06/)).toBeInTheDocument();
    await userEvent.click(within(core).getByRole('combobox', { name: '追加カテゴリ' }));
    await userEvent.click(await screen.findByRole('option', { name: 'ベーカリー' }));
    await userEvent.click(within(core).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(saves(calls, 'basic-information')).toHaveLength(1));
    expect(saves(calls, 'basic-information')[0]?.body).toMatchObject({
      postal_code: '060-0001',
      prefecture: '北海道',
      latitude: 43.06,
      longitude: 141.35,
      additional_categorie_id: ['categories/gcid:coffee_shop', 'categories/gcid:bakery'],
      additional_categorie_name: ['コーヒーショップ', 'ベーカリー'],
    });
  });
});
