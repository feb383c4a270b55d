import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  fail,
  mockApi,
  ok,
  renderAt,
  resetState,
  signIn,
  type MockRequest,
} from '../../test/render';
import { noApprovals, review, reviewPage } from '../../test/reviews';

const listCalls = (calls: MockRequest[]) =>
  calls.filter((c) => c.method === 'GET' && c.path === '/reviews').map((c) => c.url.searchParams);
const lastList = (calls: MockRequest[]) => listCalls(calls).at(-1);

describe('/reviews: the list and its filters', () => {
  beforeEach(resetState);

  it('a count that stopped at its cap reads 「10,000 件以上」', async () => {
    const rows = [review(1), review(2)];
    mockApi({
      ...noApprovals,
      'GET /reviews': ok({
        data: { ...reviewPage(rows, 1, 10, 10_000).data, total_at_least: true },
      }),
    });
    signIn();
    renderAt('/reviews');
    expect(await screen.findByText('10,000 件以上中 1 〜 2 件を表示')).toBeInTheDocument();
  });

  it('lists the reviews with their stars, reviewer, date, text, photos and reply state', async () => {
    const rows = [
      review(1, {
        is_anonymous: true,
        reviewer_name: '',
        star_rating: 2,
        comment: null,
        media: [
          { thumbnail_url: '/r/1-thumb.jpg', video_url: null },
          { thumbnail_url: '/r/2-thumb.jpg', video_url: '/r/2.mp4' },
        ],
      }),
      review(2, {
        reply: {
          comment: 'ご来店ありがとうございました。',
          updated_at: '2026-04-02T03:00:00Z',
          state: 'pending',
          policy_violation: null,
        },
      }),
      review(3, {
        star_rating: 5,
        reply: {
          comment: '詳しくはお電話ください。',
          updated_at: '2026-04-02T03:00:00Z',
          state: 'rejected',
          policy_violation: 'PERSONAL_INFO',
        },
      }),
      review(4, {
        reply: {
          comment: 'またお越しください。',
          updated_at: '2026-04-02T03:00:00Z',
          state: 'live',
          policy_violation: null,
        },
      }),
    ];
    const { calls } = mockApi({ ...noApprovals, 'GET /reviews': ok(reviewPage(rows, 1, 10, 14)) });
    signIn();
    renderAt('/reviews');
    expect(await screen.findByRole('heading', { level: 1, name: '口コミ' })).toBeInTheDocument();

    const first = await screen.findByTestId('review-1');
    expect(within(first).getByText('青木ベーカリー 恵比寿店')).toBeInTheDocument();
    expect(within(first).getByRole('img', { name: '★2（5段階中）' })).toBeInTheDocument();
    expect(within(first).getByText('匿名のユーザー')).toBeInTheDocument();
    expect(within(first).getByText('投稿日時 2026/04/01 09:00:00')).toBeInTheDocument();
    expect(within(first).getByText('（コメントなし）')).toBeInTheDocument();
    expect(within(first).getByRole('link', { name: '写真 1 を開く' })).toHaveAttribute(
      'href',
      '/r/1-thumb.jpg',
    );
    expect(within(first).getByRole('link', { name: '動画 2 を開く' })).toHaveAttribute(
      'href',
      '/r/2.mp4',
    );
    expect(within(first).getByRole('button', { name: '返信する' })).toBeInTheDocument();
    expect(within(first).queryByRole('button', { name: '返信を削除' })).toBeNull();

    const pending = screen.getByTestId('review-2');
    expect(within(pending).getByText('投稿者2')).toBeInTheDocument();
    expect(within(pending).getByText('口コミ2の本文')).toBeInTheDocument();
    expect(within(pending).getByText('審査中')).toBeInTheDocument();
    expect(within(pending).getByText('ご来店ありがとうございました。')).toBeInTheDocument();
    expect(within(pending).getByRole('button', { name: '返信を編集' })).toBeInTheDocument();
    expect(within(pending).getByRole('button', { name: '返信を削除' })).toBeInTheDocument();

    const rejected = screen.getByTestId('review-3');
    expect(within(rejected).getByRole('img', { name: '★5（5段階中）' })).toBeInTheDocument();
    expect(within(rejected).getByText('却下')).toBeInTheDocument();
    expect(within(rejected).getByText('却下の理由: 個人情報（PERSONAL_INFO）')).toBeInTheDocument();
    expect(within(screen.getByTestId('review-4')).getByText('公開中')).toBeInTheDocument();

    expect(screen.getByText('14 件中 1 〜 4 件を表示')).toBeInTheDocument();
    const q = lastList(calls);
    expect(q?.get('user_id')).toBe('1');
    expect(q?.get('limit')).toBe('10');
    expect(q?.get('page')).toBe('1');
    expect(q?.get('replied')).toBe('all');
    expect(q?.has('stars')).toBe(false);
  });

  it("reads the filters from the URL (a reload, a shared link) and sends them in the list's query", async () => {
    const { calls } = mockApi({
      ...noApprovals,
      'GET /reviews': ok(reviewPage([review(1)], 2, 25, 30)),
    });
    signIn();
    renderAt(
      '/reviews?stars=2,1&replied=unreplied&date_from=2026-04-01&date_to=2026-04-30&q=駐車場&page=2&limit=25',
    );
    await screen.findByTestId('review-1');
    const q = lastList(calls);
    expect(q?.get('stars')).toBe('1,2');
    expect(q?.get('replied')).toBe('unreplied');
    expect(q?.get('date_from')).toBe('2026-04-01');
    expect(q?.get('date_to')).toBe('2026-04-30');
    expect(q?.get('q')).toBe('駐車場');
    expect(q?.get('page')).toBe('2');
    expect(q?.get('limit')).toBe('25');
    // The controls show them.
    expect(screen.getByRole('checkbox', { name: '★1' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: '★2' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: '★3' })).not.toBeChecked();
    expect(screen.getByRole('radio', { name: '未返信' })).toBeChecked();
    expect(screen.getByLabelText('投稿日（から）')).toHaveValue('2026-04-01');
    expect(screen.getByLabelText('投稿日（まで）')).toHaveValue('2026-04-30');
    expect(screen.getByRole('searchbox', { name: '検索' })).toHaveValue('駐車場');
    expect(screen.getByRole('combobox', { name: '表示件数' })).toHaveValue('25');
  });

  it('stars, replied, dates, search and per page change the query and the URL, back on page 1', async () => {
    const { calls } = mockApi({
      ...noApprovals,
      'GET /reviews': (req) => {
        const p = Number(req.url.searchParams.get('page'));
        const per = Number(req.url.searchParams.get('limit'));
        return ok(reviewPage([review(p)], p, per, 40));
      },
    });
    signIn();
    const { router } = renderAt('/reviews');
    await screen.findByTestId('review-1');
    await userEvent.click(screen.getByRole('button', { name: '2' }));
    await screen.findByTestId('review-2');
    expect(router.state.location.search).toBe('?page=2');

    await userEvent.click(screen.getByRole('checkbox', { name: '★1' }));
    await waitFor(() => expect(lastList(calls)?.get('stars')).toBe('1'));
    expect(lastList(calls)?.get('page')).toBe('1');
    await userEvent.click(screen.getByRole('checkbox', { name: '★3' }));
    await waitFor(() => expect(lastList(calls)?.get('stars')).toBe('1,3'));
    expect(new URLSearchParams(router.state.location.search).get('stars')).toBe('1,3');

    await userEvent.click(screen.getByRole('radio', { name: '返信済み' }));
    await waitFor(() => expect(lastList(calls)?.get('replied')).toBe('replied'));
    expect(new URLSearchParams(router.state.location.search).get('replied')).toBe('replied');

    await userEvent.type(screen.getByLabelText('投稿日（から）'), '2026-03-01');
    await waitFor(() => expect(lastList(calls)?.get('date_from')).toBe('2026-03-01'));

    const before = listCalls(calls).length;
    await userEvent.type(screen.getByRole('searchbox', { name: '検索' }), '接客');
    await waitFor(() => expect(lastList(calls)?.get('q')).toBe('接客'));
    // One call for the whole word, after the pause.
    expect(
      listCalls(calls)
        .slice(before)
        .filter((q) => q.has('q')),
    ).toHaveLength(1);

    await userEvent.selectOptions(screen.getByRole('combobox', { name: '表示件数' }), '25');
    await waitFor(() => expect(lastList(calls)?.get('limit')).toBe('25'));
    const url = new URLSearchParams(router.state.location.search);
    expect(url.get('q')).toBe('接客');
    expect(url.get('limit')).toBe('25');
    expect(url.has('page')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: '条件をクリア' }));
    await waitFor(() => expect(router.state.location.search).toBe('?limit=25'));
    expect(screen.getByRole('searchbox', { name: '検索' })).toHaveValue('');
    expect(lastList(calls)?.has('stars')).toBe(false);
  });

  it('says so when no review matches, and shows why the list could not be read', async () => {
    let broken = false;
    mockApi({
      ...noApprovals,
      'GET /reviews': () =>
        broken ? fail(500, { server: ['サーバーエラーです。'] }) : ok(reviewPage([])),
    });
    signIn();
    renderAt('/reviews');
    expect(await screen.findByText('条件に合う口コミはありません。')).toBeInTheDocument();
    broken = true;
    await userEvent.click(screen.getByRole('checkbox', { name: '★5' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('サーバーエラーです。');
  });
});

describe('/reviews: a reply deleted, the menu', () => {
  beforeEach(resetState);

  it('deletes a reply after asking', async () => {
    let replied = true;
    const row = () =>
      review(5, {
        reply: replied
          ? {
              comment: 'ありがとうございました。',
              updated_at: '2026-04-02T03:00:00Z',
              state: 'live',
              policy_violation: null,
            }
          : null,
      });
    const { calls } = mockApi({
      ...noApprovals,
      'GET /reviews': () => ok(reviewPage([row()])),
      'DELETE /reviews/5/reply': () => {
        replied = false;
        return ok(row(), '返信を削除しました。');
      },
    });
    signIn();
    renderAt('/reviews');
    const card = await screen.findByTestId('review-5');
    await userEvent.click(within(card).getByRole('button', { name: '返信を削除' }));
    let dialog = await screen.findByRole('dialog', { name: '返信の削除' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'キャンセル' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await userEvent.click(within(card).getByRole('button', { name: '返信を削除' }));
    dialog = await screen.findByRole('dialog', { name: '返信の削除' });
    await userEvent.click(within(dialog).getByRole('button', { name: '削除する' }));
    expect(await screen.findByText('返信を削除しました。')).toBeInTheDocument();
    const del = calls.find((c) => c.method === 'DELETE');
    expect(del?.path).toBe('/reviews/5/reply');
    expect(del?.url.searchParams.get('user_id')).toBe('1');
    // The list is read again: the reply is gone.
    await waitFor(() =>
      expect(within(screen.getByTestId('review-5')).queryByTestId('review-reply')).toBeNull(),
    );
    expect(
      within(screen.getByTestId('review-5')).getByRole('button', { name: '返信する' }),
    ).toBeInTheDocument();
  });

  it('is in the side bar next to the posts', async () => {
    mockApi({ ...noApprovals, 'GET /reviews': ok(reviewPage([])) });
    signIn();
    renderAt('/reviews');
    const nav = await screen.findByRole('navigation', { name: 'メインメニュー' });
    const links = within(nav)
      .getAllByRole('link')
      .map((a) => a.getAttribute('href'));
    expect(links.indexOf('/reviews')).toBe(links.indexOf('/posts') + 1);
    expect(within(nav).getByRole('link', { name: '口コミ' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });
});
