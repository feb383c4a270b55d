import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  extOf,
  mediaKindOf,
  type MediaMeta,
  type PublisherKey,
  type PublisherRow,
  type StoreRow,
} from '@tenpo/domain';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mediaReader, type PostMedia } from '../../features/posts/media/read-media';
import { selectStores } from '../../lib/selection';
import {
  fail,
  loginData,
  mockApi as mockApiOnly,
  ok,
  renderAt,
  resetState,
  signIn,
  type MockReply,
  type MockRequest,
} from '../../test/render';
import { noPostApprovals } from '../../features/posts/approval/test-mocks';

/** /posts and the post form also read posts' approval (ADR 0095): none waits, no rule holds. */
const mockApi = (table: Record<string, MockReply>) => mockApiOnly({ ...noPostApprovals, ...table });

const publisher = (id: number, key: PublisherKey, status: number): PublisherRow => ({
  publisher_id: id,
  publisher_key: key,
  publisher_name: key,
  logo_url: `/images/publisher/${key}.svg`,
  entity_id: null,
  location_name: null,
  postal_code: null,
  address_lines: [],
  store_code: null,
  status,
  log: [],
});

/** Google and Facebook connected (Instagram follows Facebook), X not. */
const shopPublishers = (): PublisherRow[] => [
  publisher(1, 'google_my_business', 2),
  publisher(2, 'facebook', 1),
  publisher(3, 'instagram', 0),
  publisher(4, 'twitter', 0),
];

const basicInfo = (phone: string | null) =>
  ok({ core_information: { main_phone: phone }, contact_website_apps: {}, business_details: {} });

const api = (over: Record<string, MockReply> = {}) =>
  mockApi({
    'GET /publisher': ok(shopPublishers()),
    'GET /entity/basic-information': basicInfo(null),
    ...over,
  });

/** jsdom decodes no image: the reader answers with the size the test gives the file. */
const fakeReader = (sizes: Record<string, Partial<MediaMeta>>) => {
  let n = 0;
  vi.spyOn(mediaReader, 'readFile').mockImplementation(async (f: File): Promise<PostMedia> => {
    const ext = extOf(f.name);
    return {
      key: `k${++n}`,
      source: f,
      preview: 'data:image/png;base64,',
      meta: {
        name: f.name,
        ext,
        bytes: f.size,
        width: 1200,
        height: 900,
        kind: mediaKindOf(ext),
        ...sizes[f.name],
      },
      error: null,
    };
  });
};

const file = (name: string, bytes = 200 * 1024) =>
  new File([new Uint8Array(bytes)], name, { type: 'image/jpeg' });

const upload = async (files: File[]) => {
  const input = document.querySelector('input[type="file"]') as HTMLInputElement;
  fireEvent.change(input, { target: { files } });
};

const count = () => screen.findByTestId('media-count');
const submit = () => screen.findByRole('button', { name: '投稿する' });

describe('/create-post: channels, buttons and media', () => {
  beforeEach(resetState);

  it('offers one tab per connected channel, Google first; Facebook brings Instagram', async () => {
    api();
    signIn();
    renderAt('/create-post');
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Google', 'Facebook', 'Instagram']);
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true');
    expect(await count()).toHaveTextContent('0 / 1');
  });

  it('keeps submit disabled until there is content and a link for a link button', async () => {
    api();
    signIn();
    renderAt('/create-post');
    expect(await submit()).toBeDisabled();
    await userEvent.type(screen.getByRole('textbox', { name: /投稿内容/ }), '本日のおすすめ');
    await waitFor(async () => expect(await submit()).toBeEnabled());
    await userEvent.click(screen.getByRole('combobox', { name: 'ボタンの種類' }));
    await userEvent.click(await screen.findByRole('option', { name: '予約' }));
    expect(await submit()).toBeDisabled();
    const link = screen.getByRole('textbox', { name: /ボタンのリンク/ });
    await userEvent.type(link, 'ftp://x');
    expect(
      await screen.findByText(
        'ボタンのリンクは http:// または https:// で始まるURLを入力してください。',
      ),
    ).toBeInTheDocument();
    await userEvent.clear(link);
    await userEvent.type(link, 'https://tenpo.example/book');
    await waitFor(async () => expect(await submit()).toBeEnabled());
  });

  it('offers call now only with a main phone, and shows that phone read-only', async () => {
    api({ 'GET /entity/basic-information': basicInfo('+81312345678') });
    signIn();
    renderAt('/create-post');
    await userEvent.click(await screen.findByRole('combobox', { name: 'ボタンの種類' }));
    await userEvent.click(await screen.findByRole('option', { name: '今すぐ電話' }));
    const phone = await screen.findByRole('textbox', { name: /電話番号/ });
    expect(phone).toHaveValue('+81312345678');
    expect(phone).toHaveAttribute('readonly');
  });

  it('does not offer call now without a main phone', async () => {
    api();
    signIn();
    renderAt('/create-post');
    await userEvent.click(await screen.findByRole('combobox', { name: 'ボタンの種類' }));
    expect(await screen.findByRole('option', { name: '予約' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: '今すぐ電話' })).not.toBeInTheDocument();
  });

  it('checks media per tab, shows a message once, and truncates when the tab changes', async () => {
    fakeReader({
      'small-1.jpg': { width: 100, height: 100 },
      'small-2.jpg': { width: 120, height: 120 },
    });
    api();
    signIn();
    renderAt('/create-post');
    await userEvent.click(await screen.findByRole('tab', { name: 'Facebook' }));
    await upload([file('a.jpg'), file('b.jpg'), file('c.jpg')]);
    await waitFor(async () => expect(await count()).toHaveTextContent('3 / 80'));
    expect(screen.queryByTestId('media-errors')).not.toBeInTheDocument();
    // Back on Google (one file): the list is cut to one.
    await userEvent.click(screen.getByRole('tab', { name: 'Google' }));
    await waitFor(async () => expect(await count()).toHaveTextContent('1 / 1'));
    // Removing on Google clears all.
    await userEvent.click(screen.getByRole('button', { name: 'a.jpg 削除' }));
    await waitFor(async () => expect(await count()).toHaveTextContent('0 / 1'));
    // Two files too small for Facebook: the same message shows once, and submit is disabled.
    await userEvent.click(screen.getByRole('tab', { name: 'Facebook' }));
    await userEvent.type(screen.getByRole('textbox', { name: /投稿内容/ }), 'テキスト');
    await upload([file('small-1.jpg'), file('small-2.jpg')]);
    const errors = await screen.findByTestId('media-errors');
    expect(
      within(errors).getAllByText(
        'Facebookに投稿するファイルの解像度が小さすぎます（320×320px）。',
      ),
    ).toHaveLength(1);
    expect(await submit()).toBeDisabled();
  });
});

describe('/create-post: sending, refusals, dates, several stores', () => {
  beforeEach(resetState);

  it('posts the form as multipart to the ticked channels, then shows success and the list', async () => {
    fakeReader({});
    const { calls } = api({
      'POST /posts': ok({ id: 1 }),
      'GET /posts': ok({
        data: {
          data: [],
          current_page: 1,
          last_page: 1,
          total: 0,
          per_page: 5,
          from: null,
          to: null,
        },
      }),
      'GET /refresh-token': ok(loginData()),
    });
    signIn();
    const { router } = renderAt('/create-post');
    await userEvent.type(await screen.findByRole('textbox', { name: /投稿内容/ }), '新メニュー');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Facebook' }));
    await upload([file('menu.jpg')]);
    await waitFor(async () => expect(await count()).toHaveTextContent('1 / 1'));
    await waitFor(async () => expect(await submit()).toBeEnabled());
    await userEvent.click(await submit());
    expect(await screen.findByText('投稿を受け付けました。')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/posts'));
    const post = calls.find((c) => c.method === 'POST' && c.path === '/posts') as MockRequest;
    const body = post.body as FormData;
    expect(body.get('user_id')).toBe('1');
    expect(body.get('content')).toBe('新メニュー');
    expect(body.get('button_type')).toBe('0');
    expect(body.get('shared_sns_type')).toBe('google_my_business,facebook');
    expect(body.get('publish_date')).toBe('');
    expect((body.get('medias[0]') as File).name).toBe('menu.jpg');
  });

  it('a refused post shows the server’s errors, joined by line breaks, in one toast', async () => {
    api({
      'POST /posts': fail(422, {
        content: ['Xに投稿できる本文は160文字までです。'],
        medias: ['Instagramに投稿するには写真または動画が必要です。'],
      }),
    });
    signIn();
    renderAt('/create-post');
    await userEvent.type(await screen.findByRole('textbox', { name: /投稿内容/ }), '告知');
    await waitFor(async () => expect(await submit()).toBeEnabled());
    await userEvent.click(await submit());
    const toast = await screen.findByText(/Xに投稿できる本文は160文字までです。/);
    expect(toast.textContent).toBe(
      'Xに投稿できる本文は160文字までです。\nInstagramに投稿するには写真または動画が必要です。',
    );
  });

  it('a date in the past is refused in Tokyo time, and the shortcuts (today, yesterday, a week ago) fill the field', async () => {
    api();
    signIn();
    renderAt('/create-post');
    await userEvent.type(await screen.findByRole('textbox', { name: /投稿内容/ }), '告知');
    const input = screen.getByLabelText('公開日時') as HTMLInputElement;
    const tokyoDay = (daysAgo: number) =>
      new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Tokyo' }).format(
        Date.now() - daysAgo * 24 * 60 * 60 * 1000,
      );
    // The picker offers no day before yesterday (spec 2 §5).
    expect(input.min).toBe(`${tokyoDay(1)}T00:00`);
    fireEvent.change(input, { target: { value: '2020-01-01T10:00' } });
    expect(await screen.findByText('現在以降の日時を指定してください。')).toBeInTheDocument();
    // The spec's shortcuts: a week ago and yesterday are past, so the rule's message stays.
    await userEvent.click(screen.getByRole('button', { name: '公開日時 1週間前' }));
    expect(input.value.slice(0, 10)).toBe(tokyoDay(7));
    await userEvent.click(screen.getByRole('button', { name: '公開日時 昨日' }));
    expect(input.value.slice(0, 10)).toBe(tokyoDay(1));
    expect(screen.getByText('現在以降の日時を指定してください。')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '公開日時 今日' }));
    expect(input.value.slice(0, 10)).toBe(tokyoDay(0));
    await waitFor(() =>
      expect(screen.queryByText('現在以降の日時を指定してください。')).not.toBeInTheDocument(),
    );
    // A datetime-local input drops ":00" seconds (one run in 60 lands on them); the field reads
    // both forms (tokyo-date-field fromInput).
    expect(input.value).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/);
  });

  it('an agency with several stores posts to all of them in one submission', async () => {
    const store = (id: number): StoreRow => ({
      id,
      name: `店舗${id}`,
      status: 1,
      role: 1,
      in_trial: false,
      agency_logo: null,
      agent_code: 'demo',
      company_name: null,
      person_in_charge: null,
      email: `s${id}@tenpo.example`,
      google_status: 2,
      payment_fail: false,
    });
    const agency = { id: 50, role: 11 };
    const { calls } = api({
      'POST /posts': ok({ id: 2 }),
      'GET /posts': ok({
        data: {
          data: [],
          current_page: 1,
          last_page: 1,
          total: 0,
          per_page: 5,
          from: null,
          to: null,
        },
      }),
      'GET /refresh-token': ok(loginData(agency)),
      'GET /agency/stores': ok({
        data: [],
        current_page: 1,
        last_page: 1,
        total: 0,
        per_page: 5,
        from: null,
        to: null,
      }),
      'GET /stores': ok([]),
    });
    signIn(agency);
    selectStores([store(3), store(4)], null);
    renderAt('/create-post');
    expect(await screen.findByText('選択中の 2 店舗に投稿します')).toBeInTheDocument();
    await userEvent.type(await screen.findByRole('textbox', { name: /投稿内容/ }), '全店告知');
    await waitFor(async () => expect(await submit()).toBeEnabled());
    await userEvent.click(await submit());
    await screen.findByText('投稿を受け付けました。');
    const post = calls.find((c) => c.method === 'POST' && c.path === '/posts') as MockRequest;
    expect((post.body as FormData).get('user_id')).toBe('3,4');
    const publisherCalls = calls.filter((c) => c.path === '/publisher');
    expect(publisherCalls.map((c) => c.url.searchParams.get('user_id')).sort()).toEqual(['3', '4']);
  });
});

describe('/post/:id', () => {
  beforeEach(resetState);

  it('prefills the form from the post, to post a copy with its media URLs', async () => {
    vi.spyOn(mediaReader, 'readUrl').mockImplementation(async (url: string) => ({
      key: url,
      source: url,
      preview: url,
      meta: {
        name: 'p.jpg',
        ext: 'jpg',
        bytes: Number.NaN,
        width: 800,
        height: 800,
        kind: 'image',
      },
      error: null,
    }));
    const { calls } = api({
      'GET /posts/9': ok([
        {
          id: 9,
          content: '春の新作',
          button_type: 4,
          button_link: 'https://tenpo.example/spring',
          created_at: '2026-03-01T00:00:00Z',
          publish_date: null,
          delete_date: null,
          media_url: ['http://localhost/media/p.jpg'],
          shared_sns_type: 'google_my_business,facebook',
          targets: [],
        },
      ]),
      'POST /posts': ok({ id: 10 }),
      'GET /posts': ok({
        data: {
          data: [],
          current_page: 1,
          last_page: 1,
          total: 0,
          per_page: 5,
          from: null,
          to: null,
        },
      }),
      'GET /refresh-token': ok(loginData()),
    });
    signIn();
    renderAt('/post/9');
    expect(await screen.findByRole('textbox', { name: /投稿内容/ })).toHaveValue('春の新作');
    expect(screen.getByRole('textbox', { name: /ボタンのリンク/ })).toHaveValue(
      'https://tenpo.example/spring',
    );
    expect(screen.getByRole('checkbox', { name: 'Facebook' })).toBeChecked();
    await waitFor(async () => expect(await count()).toHaveTextContent('1 / 1'));
    await waitFor(async () => expect(await submit()).toBeEnabled());
    await userEvent.click(await submit());
    await screen.findByText('投稿を受け付けました。');
    const get = calls.find((c) => c.path === '/posts/9') as MockRequest;
    expect(get.url.searchParams.get('user_id')).toBe('1');
    const post = calls.find((c) => c.method === 'POST' && c.path === '/posts') as MockRequest;
    const body = post.body as FormData;
    expect(body.get('button_type')).toBe('4');
    expect(body.get('medias[0]')).toBe('http://localhost/media/p.jpg');
  });
});

describe('/create-post: Google post types', () => {
  beforeEach(resetState);

  const created = () =>
    ({
      'GET /posts': ok({
        data: {
          data: [],
          current_page: 1,
          last_page: 1,
          total: 0,
          per_page: 5,
          from: null,
          to: null,
        },
      }),
      'GET /refresh-token': ok(loginData()),
    }) satisfies Record<string, MockReply>;

  const dateInput = (label: string) =>
    screen.getByLabelText(label, { exact: false, selector: 'input[type="datetime-local"]' });
  const setDate = (label: string, value: string) =>
    fireEvent.change(dateInput(label), { target: { value } });

  const posted = (calls: MockRequest[]) => calls.filter((c) => c.method === 'POST');

  it('offers news, event and offer on the Google tab, each with its fields', async () => {
    api();
    signIn();
    renderAt('/create-post');
    const news = await screen.findByRole('radio', { name: '最新情報' });
    expect(news).toBeChecked();
    expect(screen.queryByRole('textbox', { name: /タイトル/ })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('radio', { name: 'イベント' }));
    expect(await screen.findByRole('textbox', { name: /タイトル/ })).toBeInTheDocument();
    expect(dateInput('開始日時')).toBeRequired();
    expect(dateInput('終了日時')).toBeRequired();
    expect(screen.queryByRole('textbox', { name: /クーポンコード/ })).not.toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'ボタンの種類' })).toBeInTheDocument();
    // Google only: the other channels can be neither ticked nor opened.
    expect(
      screen.getByText(
        'イベントと特典は Google ビジネスプロフィールにのみ投稿されます。他の投稿先には送信されません。',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Facebook' })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'Facebook' })).not.toBeChecked();
    expect(screen.getByRole('tab', { name: 'Facebook' })).toBeDisabled();

    await userEvent.click(screen.getByRole('radio', { name: '特典' }));
    expect(await screen.findByRole('textbox', { name: /クーポンコード/ })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /特典利用のリンク/ })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /利用規約/ })).toBeInTheDocument();
    // Google ignores an offer's call to action: no button to choose.
    expect(screen.queryByRole('combobox', { name: 'ボタンの種類' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('radio', { name: '最新情報' }));
    await waitFor(() =>
      expect(screen.queryByRole('textbox', { name: /タイトル/ })).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('checkbox', { name: 'Facebook' })).toBeEnabled();
    expect(screen.getByRole('tab', { name: 'Facebook' })).toBeEnabled();
  });

  it('an event without its title is not sent, and says so once', async () => {
    const { calls } = api({ 'POST /posts/events': ok({ id: 1 }), ...created() });
    signIn();
    renderAt('/create-post');
    await userEvent.click(await screen.findByRole('radio', { name: 'イベント' }));
    await userEvent.type(screen.getByRole('textbox', { name: /投稿内容/ }), '試飲会のお知らせ');
    setDate('開始日時', '2030-01-10T10:00');
    setDate('終了日時', '2030-01-10T17:00');
    await waitFor(async () => expect(await submit()).toBeEnabled());
    await userEvent.click(await submit());
    expect(await screen.findAllByText('タイトルを入力してください。')).toHaveLength(1);
    expect(posted(calls)).toEqual([]);

    // With the title it goes, to the events call, Google only, with its fields.
    await userEvent.type(screen.getByRole('textbox', { name: /タイトル/ }), '秋の試飲会');
    await waitFor(() =>
      expect(screen.queryByText('タイトルを入力してください。')).not.toBeInTheDocument(),
    );
    await userEvent.click(await submit());
    expect(await screen.findByText('投稿を受け付けました。')).toBeInTheDocument();
    const [post] = posted(calls);
    expect(post?.path).toBe('/posts/events');
    const body = post?.body as FormData;
    expect(body.get('shared_sns_type')).toBe('google_my_business');
    expect(body.get('title')).toBe('秋の試飲会');
    expect(body.get('start_date')).toBe('2030-01-10 10:00:00');
    expect(body.get('end_date')).toBe('2030-01-10 17:00:00');
    expect(body.get('content')).toBe('試飲会のお知らせ');
    expect(body.get('coupon_code')).toBeNull();
  });

  it('an event ending before it starts is refused with the rule’s message', async () => {
    const { calls } = api();
    signIn();
    renderAt('/create-post');
    await userEvent.click(await screen.findByRole('radio', { name: 'イベント' }));
    await userEvent.type(screen.getByRole('textbox', { name: /タイトル/ }), '試飲会');
    await userEvent.type(screen.getByRole('textbox', { name: /投稿内容/ }), '本文');
    setDate('開始日時', '2030-01-10T17:00');
    setDate('終了日時', '2030-01-10T10:00');
    expect(
      await screen.findByText('終了日時は開始日時より後の日時を指定してください。'),
    ).toBeInTheDocument();
    await userEvent.click(await submit());
    expect(posted(calls)).toEqual([]);
  });

  it('an offer goes to the offers call with its coupon, redeem link and terms, and no button', async () => {
    const { calls } = api({ 'POST /posts/offers': ok({ id: 2 }), ...created() });
    signIn();
    renderAt('/create-post');
    // A button chosen for news does not ride along on the offer.
    await userEvent.click(await screen.findByRole('combobox', { name: 'ボタンの種類' }));
    await userEvent.click(await screen.findByRole('option', { name: '予約' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Facebook' }));
    await userEvent.click(screen.getByRole('radio', { name: '特典' }));
    await userEvent.type(screen.getByRole('textbox', { name: /タイトル/ }), '10%オフ');
    await userEvent.type(screen.getByRole('textbox', { name: /投稿内容/ }), '会計時に提示');
    setDate('開始日時', '2030-02-01T09:00');
    setDate('終了日時', '2030-02-28T21:00');
    await userEvent.type(screen.getByRole('textbox', { name: /クーポンコード/ }), 'TENPO10');
    const link = screen.getByRole('textbox', { name: /特典利用のリンク/ });
    await userEvent.type(link, 'ftp://x');
    expect(
      await screen.findByText(
        '特典利用のリンクには http:// または https:// で始まる URL を入力してください。',
      ),
    ).toBeInTheDocument();
    await userEvent.clear(link);
    await userEvent.type(link, 'https://tenpo.example/coupon');
    await userEvent.type(screen.getByRole('textbox', { name: /利用規約/ }), 'お一人様1回');
    await waitFor(async () => expect(await submit()).toBeEnabled());
    await userEvent.click(await submit());
    expect(await screen.findByText('投稿を受け付けました。')).toBeInTheDocument();
    const [post] = posted(calls);
    expect(post?.path).toBe('/posts/offers');
    const body = post?.body as FormData;
    expect(
      Object.fromEntries([...body.entries()].filter(([, v]) => typeof v === 'string')),
    ).toMatchObject({
      shared_sns_type: 'google_my_business',
      button_type: '0',
      button_link: '',
      title: '10%オフ',
      start_date: '2030-02-01 09:00:00',
      end_date: '2030-02-28 21:00:00',
      coupon_code: 'TENPO10',
      redeem_link: 'https://tenpo.example/coupon',
      terms: 'お一人様1回',
    });
  });
});

describe('/post/:id of an unknown id', () => {
  beforeEach(resetState);

  it('says the post does not exist (issue 23 item 13)', async () => {
    api({
      'GET /posts/999': fail(404, {}, 'Not Found'),
      'GET /refresh-token': ok(loginData()),
    });
    signIn();
    renderAt('/post/999');
    expect(await screen.findByText('この投稿は存在しません。')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /投稿内容/ })).not.toBeInTheDocument();
  });
});

describe('/post/:id of an event', () => {
  beforeEach(resetState);

  it('copies the type and its fields, and asks for the dates again', async () => {
    api({
      'GET /posts/12': ok([
        {
          id: 12,
          content: '試飲会のご案内',
          button_type: 0,
          button_link: null,
          created_at: '2026-03-01T00:00:00Z',
          publish_date: null,
          delete_date: null,
          media_url: [],
          shared_sns_type: 'google_my_business',
          targets: [],
          post_type: 'event',
          topic: {
            title: '秋の試飲会',
            start_date: '2026-03-10 10:00:00',
            end_date: '2026-03-10 17:00:00',
            coupon_code: null,
            redeem_link: null,
            terms: null,
          },
        },
      ]),
    });
    signIn();
    renderAt('/post/12');
    expect(await screen.findByRole('radio', { name: 'イベント' })).toBeChecked();
    expect(screen.getByRole('textbox', { name: /タイトル/ })).toHaveValue('秋の試飲会');
    const start = screen.getByLabelText('開始日時', {
      exact: false,
      selector: 'input[type="datetime-local"]',
    });
    expect(start).toHaveValue('');
    await userEvent.click(await submit());
    expect(await screen.findByText('開始日時を入力してください。')).toBeInTheDocument();
  });
});
