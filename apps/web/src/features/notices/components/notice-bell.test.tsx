import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { NoticeView } from '@tenpo/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import { mockApi, ok, renderAt, resetState, signIn } from '@/test/render';
import { noApprovals, reviewPage } from '@/test/reviews';

// The header's bell (ADR 0094): the unread count, a notice opened is read and leads to its
// screen, all read at once, and the review mail choice.

const notice = (id: number, over: Partial<NoticeView> = {}): NoticeView => ({
  id,
  kind: 'reviews_new',
  store_id: 1,
  title: `青木ベーカリー 恵比寿店に新しい口コミが${id}件届きました`,
  body: '★★ 待ち時間が長かったです。',
  link: '/reviews?user_id=1&replied=unreplied',
  created_at: '2026-04-02T00:00:00Z',
  read_at: null,
  ...over,
});
const list = (rows: NoticeView[], unread: number) =>
  ok({
    data: {
      data: rows,
      current_page: 1,
      last_page: 1,
      total: rows.length,
      per_page: 10,
      from: 1,
      to: rows.length,
    },
    unread,
  });

describe('the notices bell', () => {
  beforeEach(resetState);

  it('shows the unread count; a notice opened is marked read and leads to its screen', async () => {
    const { calls } = mockApi({
      ...noApprovals,
      'GET /notices': list([notice(2), notice(1, { read_at: '2026-04-02T01:00:00Z' })], 1),
      'POST /notices/read': ok({ unread: 0 }),
      'GET /notices/settings': ok({ review_mail: 'immediate' }),
      'GET /reviews': ok(reviewPage([])),
    });
    signIn();
    const { router } = renderAt('/dashboard');
    const bell = await screen.findByRole('button', { name: 'お知らせ（未読 1 件）' });
    await userEvent.click(bell);
    const dialog = within(await screen.findByRole('dialog'));
    expect(
      dialog.getByText('青木ベーカリー 恵比寿店に新しい口コミが2件届きました'),
    ).toBeInTheDocument();
    await userEvent.click(dialog.getByTestId('notice-2'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/reviews'));
    expect(router.state.location.search).toBe('?user_id=1&replied=unreplied');
    expect(calls.filter((c) => c.path === '/notices/read').map((c) => c.body)).toEqual([
      { ids: [2] },
    ]);
  });

  it('marks all read, and changes the review mail choice', async () => {
    const { calls } = mockApi({
      'GET /notices': list([notice(3)], 1),
      'POST /notices/read': ok({ unread: 0 }),
      'GET /notices/settings': ok({ review_mail: 'immediate' }),
      'PUT /notices/settings': ok({ review_mail: 'daily' }, '通知の設定を保存しました。'),
    });
    signIn();
    renderAt('/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: 'お知らせ（未読 1 件）' }));
    const dialog = within(await screen.findByRole('dialog'));
    await userEvent.click(dialog.getByRole('button', { name: 'すべて既読にする' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/notices/read').map((c) => c.body)).toEqual([{}]),
    );
    const select = dialog.getByRole('combobox', { name: '新しい口コミのメール通知' });
    await waitFor(() => expect(select).toHaveValue('届いたらすぐ'));
    await userEvent.click(select);
    await userEvent.click(await dialog.findByRole('option', { name: '1日1回まとめて（8時）' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([
        { review_mail: 'daily' },
      ]),
    );
  });
});
