import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PostRow, PostTarget } from '../../features/posts/api/posts-api';
import {
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

const target = (id: number, over: Partial<PostTarget> = {}): PostTarget => ({
  id,
  user_id: 1,
  publisher_key: 'google_my_business',
  state: 'published',
  time: '2026-04-01T01:00:00Z',
  url: 'https://business.google.com/posts/1',
  errors: [],
  retryable: false,
  ...over,
});

const post = (id: number, over: Partial<PostRow> = {}): PostRow => ({
  id,
  content: `投稿${id}`,
  created_at: `2026-04-0${id}T00:00:00Z`,
  publish_date: null,
  delete_date: null,
  media_url: [],
  targets: [target(id * 10)],
  ...over,
});

/** The body's `data.data` is the page and `data.data.data` its rows (spec 2 §7). */
const page = (rows: PostRow[], p = 1, per = 5, total = rows.length) => ({
  data: {
    data: rows,
    current_page: p,
    last_page: Math.max(1, Math.ceil(total / per)),
    total,
    per_page: per,
    from: rows.length ? (p - 1) * per + 1 : null,
    to: rows.length ? (p - 1) * per + rows.length : null,
  },
});

const postCalls = (calls: MockRequest[]) =>
  calls.filter((c) => c.method === 'GET' && c.path === '/posts').map((c) => c.url.searchParams);

describe('/posts', () => {
  beforeEach(resetState);

  it('lists the posts, 5 per page by default, with the showing line and every target', async () => {
    const rows = [
      post(1, {
        publish_date: '2026-04-10 09:00:00',
        delete_date: '2026-05-10 09:00:00',
        media_url: ['/media/a.jpg', '/media/b.jpg'],
        targets: [
          target(11),
          target(12, {
            publisher_key: 'instagram',
            state: 'failed',
            url: null,
            errors: ['Instagramの投稿上限（24時間に25件）に達しました。'],
          }),
        ],
      }),
      post(2),
    ];
    const { calls } = mockApi({ 'GET /posts': ok(page(rows, 1, 5, 12)) });
    signIn();
    renderAt('/posts');
    const row = await screen.findByTestId('post-1');
    expect(within(row).getByText('2026/04/10 09:00:00')).toBeInTheDocument();
    expect(within(row).getByText('2026/05/10 09:00:00')).toBeInTheDocument();
    expect(within(row).getByText('2026/04/01 09:00:00')).toBeInTheDocument();
    expect(within(row).getByText('公開済み')).toBeInTheDocument();
    expect(within(row).getByText('失敗')).toBeInTheDocument();
    expect(
      within(row).getByText('Instagramの投稿上限（24時間に25件）に達しました。'),
    ).toBeInTheDocument();
    expect(within(row).getByText('1 / 2')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: '投稿 1 をコピー' })).toHaveAttribute(
      'href',
      '/post/1',
    );
    expect(screen.getByText('12 件中 1 〜 2 件を表示')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '新規投稿' })).toHaveAttribute('href', '/create-post');
    const q = postCalls(calls)[0];
    expect(q?.get('limit')).toBe('5');
    expect(q?.get('page')).toBe('1');
    expect(q?.get('user_id')).toBe('1');
  });

  it("shows each channel's link, not only Google's (issue 21 item 15)", async () => {
    const links = {
      google_my_business: 'https://business.google.com/posts/1',
      facebook: 'https://www.facebook.com/104857392017465_2001',
      instagram: 'https://www.instagram.com/p/C0ffee123/',
      twitter: 'https://x.com/i/web/status/1800000000000000001',
    } as const;
    const rows = [
      post(1, {
        targets: Object.entries(links).map(([key, url], i) =>
          target(11 + i, { publisher_key: key as PostTarget['publisher_key'], url }),
        ),
      }),
    ];
    mockApi({ 'GET /posts': ok(page(rows)) });
    signIn();
    renderAt('/posts');
    for (const [i, url] of Object.values(links).entries()) {
      const t = await screen.findByTestId(`target-${11 + i}`);
      expect(within(t).getByRole('link', { name: '投稿を表示' })).toHaveAttribute('href', url);
    }
  });

  it('retries a failed target from the list', async () => {
    let retried = false;
    const failed = () =>
      post(1, {
        targets: [
          target(12, {
            publisher_key: 'twitter',
            state: retried ? 'scheduled' : 'failed',
            errors: retried ? [] : ['Xの一時的なエラーです。'],
            retryable: !retried,
          }),
        ],
      });
    const { calls } = mockApi({
      'GET /posts': () => ok(page([failed()])),
      'POST /posts/1/targets/12/retry': () => {
        retried = true;
        return ok(target(12, { state: 'scheduled' }));
      },
    });
    signIn();
    renderAt('/posts');
    await userEvent.click(await screen.findByRole('button', { name: 'X 再試行' }));
    expect(await screen.findByText('再試行を受け付けました。')).toBeInTheDocument();
    expect(await screen.findByText('予約済み')).toBeInTheDocument();
    expect(screen.queryByText('Xの一時的なエラーです。')).not.toBeInTheDocument();
    expect(calls.some((c) => c.path === '/posts/1/targets/12/retry')).toBe(true);
  });

  it('offers the retry wherever the API takes it: an unread outcome too, not one being settled', async () => {
    const rows = [
      post(1, {
        targets: [
          // The provider could not be read: the retry call takes it (ADR 0026).
          target(11, {
            state: 'unknown',
            errors: ['Googleの投稿結果を確認できませんでした。'],
            retryable: true,
          }),
          // Waiting to be settled by its own job: no retry.
          target(12, {
            publisher_key: 'facebook',
            state: 'unknown',
            errors: ['Facebookの投稿結果を確認中です。'],
            retryable: false,
          }),
        ],
      }),
    ];
    const { calls } = mockApi({
      'GET /posts': ok(page(rows)),
      'POST /posts/1/targets/11/retry': ok(target(11, { state: 'scheduled' })),
    });
    signIn();
    renderAt('/posts');
    const row = await screen.findByTestId('post-1');
    expect(within(row).getAllByText('確認中')).toHaveLength(2);
    expect(within(row).queryByRole('button', { name: 'Facebook 再試行' })).toBeNull();
    await userEvent.click(within(row).getByRole('button', { name: 'Google 再試行' }));
    expect(await screen.findByText('再試行を受け付けました。')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      '/posts/1/targets/11/retry',
    ]);
  });

  it('searches after a pause, back on page 1; per page asks again from page 1', async () => {
    const { calls } = mockApi({
      'GET /posts': (req) => {
        const p = Number(req.url.searchParams.get('page'));
        const per = Number(req.url.searchParams.get('limit'));
        return ok(page([post(p)], p, per, 12));
      },
    });
    signIn();
    renderAt('/posts');
    await screen.findByTestId('post-1');
    await userEvent.click(screen.getByRole('button', { name: '2' }));
    await screen.findByTestId('post-2');
    await userEvent.type(screen.getByRole('textbox', { name: '検索' }), '春');
    await waitFor(() =>
      expect(postCalls(calls).some((q) => q.get('post_key_search') === '春')).toBe(true),
    );
    const search = postCalls(calls).filter((q) => q.get('post_key_search') === '春');
    // One call for the whole word, made after the debounce, on page 1.
    expect(search).toHaveLength(1);
    expect(search[0]?.get('page')).toBe('1');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: '表示件数' }), '25');
    await waitFor(() => expect(postCalls(calls).some((q) => q.get('limit') === '25')).toBe(true));
  });

  it('sorts the shown page on the client', async () => {
    const rows = [
      post(1, { content: 'いちご' }),
      post(2, { content: 'あんこ' }),
      post(3, { content: 'うめ' }),
    ];
    const { calls } = mockApi({ 'GET /posts': ok(page(rows)) });
    signIn();
    renderAt('/posts');
    await screen.findByTestId('post-1');
    const order = () => screen.getAllByTestId(/^post-\d+$/).map((r) => r.dataset.testid);
    await userEvent.click(screen.getByRole('button', { name: '投稿内容で並べ替え' }));
    expect(order()).toEqual(['post-2', 'post-1', 'post-3']);
    await userEvent.click(screen.getByRole('button', { name: '投稿内容で並べ替え' }));
    expect(order()).toEqual(['post-3', 'post-1', 'post-2']);
    await userEvent.click(screen.getByRole('button', { name: '作成日で並べ替え' }));
    expect(order()).toEqual(['post-1', 'post-2', 'post-3']);
    expect(postCalls(calls)).toHaveLength(1);
  });

  it('the copy action opens the prefilled form', async () => {
    mockApi({
      'GET /posts': ok(page([post(4)])),
      'GET /refresh-token': ok(loginData()),
      'GET /posts/4': ok([post(4, { content: 'コピー元' })]),
      'GET /publisher': ok([]),
      'GET /entity/basic-information': ok({ core_information: { main_phone: null } }),
    });
    signIn();
    const { router } = renderAt('/posts');
    await userEvent.click(await screen.findByRole('link', { name: '投稿 4 をコピー' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/post/4'));
    // No channel connected: the form says so instead of offering tabs.
    expect(await screen.findByText(/投稿できる連携先がありません/)).toBeInTheDocument();
  });
});
