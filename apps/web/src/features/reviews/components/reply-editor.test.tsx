import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fail, mockApi, ok, renderAt, resetState, signIn, type MockRequest } from '@/test/render';
import { noApprovals, review, reviewPage } from '@/test/reviews';
import type { ReviewFinding } from '../api/reviews-api';
import { reviewDraftKey } from '../hooks/use-reply-draft';

// The reply flow of /reviews (docs/product/reviews.md): checked as typed, blocked until changed
// or confirmed, refusals under the field, the draft kept until sent.

const blockFinding: ReviewFinding = {
  rule_id: 'medical.guarantee',
  set: 'medical_ad',
  severity: 'block',
  phrase: '必ず治ります',
  start: 0,
  end: 6,
  title: '治療効果の保証',
  reason: '治療の効果を保証する表現は医療広告で禁止されています。',
  source: { title: '医療広告ガイドライン', url: 'https://www.mhlw.go.jp/guideline' },
};
const warnFinding: ReviewFinding = {
  rule_id: 'premiums.best',
  set: 'premiums_act',
  severity: 'warn',
  phrase: '地域最安',
  start: 0,
  end: 4,
  title: '最上級表現',
  reason: '根拠のない「最安」は有利誤認のおそれがあります。',
  source: { title: '景品表示法', url: 'https://www.caa.go.jp/premiums' },
};

/** The check finds the phrases of the two findings in the text sent. */
const check = (req: MockRequest) => {
  const comment = (req.body as { comment: string }).comment;
  const findings = [blockFinding, warnFinding].filter((f) => comment.includes(f.phrase));
  return ok({ rule_sets: ['medical_ad', 'premiums_act'], findings });
};

const setup = (reply: (req: MockRequest) => { status?: number; body: unknown }) => {
  let sent = false;
  const api = mockApi({
    ...noApprovals,
    'GET /reviews': () =>
      ok(
        reviewPage([
          review(7, {
            reply: sent
              ? {
                  comment: '返信',
                  updated_at: '2026-04-02T03:00:00Z',
                  state: 'pending',
                  policy_violation: null,
                }
              : null,
          }),
        ]),
      ),
    'POST /reviews/check': check,
    'POST /reviews/7/reply': (req) => {
      const r = reply(req);
      if ((r.status ?? 200) === 200) sent = true;
      return r;
    },
  });
  signIn();
  return api;
};

const openEditor = async () => {
  const card = await screen.findByTestId('review-7');
  await userEvent.click(within(card).getByRole('button', { name: '返信する' }));
  return within(card);
};
const replyCalls = (calls: MockRequest[]) =>
  calls.filter((c) => c.path === '/reviews/7/reply').map((c) => c.body);

describe('/reviews: replying', () => {
  beforeEach(resetState);

  it('shows the findings as typed; a block disables 送信 until the override is ticked, which is sent', async () => {
    const { calls } = setup(() => ok(review(7), '返信を送信しました。'));
    renderAt('/reviews');
    const card = await openEditor();
    const box = card.getByRole('textbox', { name: '返信内容' });
    expect(box).toHaveFocus();
    await userEvent.type(box, '地域最安です。必ず治ります');
    const found = await card.findAllByTestId('review-finding');
    await waitFor(() => expect(card.getAllByTestId('review-finding')).toHaveLength(2));
    expect(found.length).toBeGreaterThan(0);
    const block = card
      .getAllByTestId('review-finding')
      .find((f) => f.dataset.severity === 'block') as HTMLElement;
    expect(within(block).getByText('送信不可')).toBeInTheDocument();
    expect(within(block).getByText('「必ず治ります」')).toBeInTheDocument();
    expect(within(block).getByText('治療効果の保証')).toBeInTheDocument();
    expect(
      within(block).getByText('治療の効果を保証する表現は医療広告で禁止されています。'),
    ).toBeInTheDocument();
    expect(within(block).getByRole('link', { name: '出典: 医療広告ガイドライン' })).toHaveAttribute(
      'href',
      'https://www.mhlw.go.jp/guideline',
    );
    const warn = card
      .getAllByTestId('review-finding')
      .find((f) => f.dataset.severity === 'warn') as HTMLElement;
    expect(within(warn).getByText('注意')).toBeInTheDocument();

    const send = card.getByRole('button', { name: '送信' });
    expect(send).toBeDisabled();
    const checkCall = calls.filter((c) => c.path === '/reviews/check').at(-1);
    expect(checkCall?.body).toEqual({
      user_id: '1',
      review_id: 7,
      comment: '地域最安です。必ず治ります',
    });

    await userEvent.click(
      card.getByRole('checkbox', { name: '内容を確認したうえで、このまま送信する' }),
    );
    expect(send).toBeEnabled();
    await userEvent.click(send);
    expect(await screen.findByText('返信を送信しました。')).toBeInTheDocument();
    expect(replyCalls(calls)).toEqual([
      { user_id: '1', comment: '地域最安です。必ず治ります', override: true },
    ]);
    // Sent: the draft is gone and the list read again (the reply now pending).
    expect(localStorage.getItem(reviewDraftKey(7))).toBeNull();
    expect(await card.findByText('審査中')).toBeInTheDocument();
    expect(card.queryByRole('textbox', { name: '返信内容' })).toBeNull();
  });

  it('a warning alone leaves 送信 enabled and sends no override; a changed text lifts a block', async () => {
    const { calls } = setup(() => ok(review(7), '返信を送信しました。'));
    renderAt('/reviews');
    const card = await openEditor();
    const box = card.getByRole('textbox', { name: '返信内容' });
    await userEvent.type(box, '必ず治ります');
    await card.findByText('治療効果の保証');
    expect(card.getByRole('button', { name: '送信' })).toBeDisabled();
    await userEvent.clear(box);
    await userEvent.type(box, '地域最安です');
    await waitFor(() => expect(card.queryByText('治療効果の保証')).toBeNull());
    expect(card.getByText('最上級表現')).toBeInTheDocument();
    expect(card.queryByRole('checkbox')).toBeNull();
    await userEvent.click(card.getByRole('button', { name: '送信' }));
    await screen.findByText('返信を送信しました。');
    expect(replyCalls(calls)).toEqual([{ user_id: '1', comment: '地域最安です', override: false }]);
  });

  it('a refusal shows its lines under the field and keeps the text; a server block offers the override', async () => {
    let tries = 0;
    const { calls } = setup(() => {
      tries += 1;
      return tries === 1
        ? fail(422, {
            comment: [
              '送信できない表現が含まれています。修正するか、内容を確認したうえで送信してください。',
              '個人名の記載：「田中様」',
            ],
          })
        : ok(review(7), '返信を送信しました。');
    });
    renderAt('/reviews');
    const card = await openEditor();
    const box = card.getByRole('textbox', { name: '返信内容' });
    await userEvent.type(box, '田中様、ありがとうございました');
    await userEvent.click(card.getByRole('button', { name: '送信' }));
    expect(await card.findByText('個人名の記載：「田中様」')).toBeInTheDocument();
    expect(
      card.getByText(
        '送信できない表現が含まれています。修正するか、内容を確認したうえで送信してください。',
      ),
    ).toBeInTheDocument();
    expect(box).toHaveValue('田中様、ありがとうございました');
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(card.getByRole('button', { name: '送信' })).toBeDisabled();
    await userEvent.click(
      card.getByRole('checkbox', { name: '内容を確認したうえで、このまま送信する' }),
    );
    await userEvent.click(card.getByRole('button', { name: '送信' }));
    await screen.findByText('返信を送信しました。');
    expect(replyCalls(calls).at(-1)).toEqual({
      user_id: '1',
      comment: '田中様、ありがとうございました',
      override: true,
    });
  });

  it('keeps the draft in the browser: a reload opens the editor with it', async () => {
    setup(() => ok(review(7)));
    const first = renderAt('/reviews');
    const card = await openEditor();
    await userEvent.type(card.getByRole('textbox', { name: '返信内容' }), '下書きの返信');
    expect(JSON.parse(localStorage.getItem(reviewDraftKey(7)) ?? '{}')).toMatchObject({
      data: '下書きの返信',
    });
    first.unmount();

    renderAt('/reviews');
    const again = within(await screen.findByTestId('review-7'));
    expect(await again.findByRole('textbox', { name: '返信内容' })).toHaveValue('下書きの返信');
    expect(again.getByText('保存されていた下書きを表示しています。')).toBeInTheDocument();
    // Closing keeps it; the card says so.
    await userEvent.click(again.getByRole('button', { name: '閉じる' }));
    expect(again.getByText('送信していない下書きがあります')).toBeInTheDocument();
    expect(again.getByRole('button', { name: '返信する' })).toHaveFocus();
    // Discarding forgets it.
    await userEvent.click(again.getByRole('button', { name: '返信する' }));
    await userEvent.click(again.getByRole('button', { name: '下書きを破棄' }));
    expect(again.getByRole('textbox', { name: '返信内容' })).toHaveValue('');
    expect(localStorage.getItem(reviewDraftKey(7))).toBeNull();
  });
});
