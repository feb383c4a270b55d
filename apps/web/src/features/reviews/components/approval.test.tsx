import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ROLE, type ReviewApprovalView } from '@tenpo/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  loginData,
  mockApi,
  ok,
  renderAt,
  resetState,
  signIn,
  type MockRequest,
} from '@/test/render';
import { selectStores } from '@/lib/selection';
import { noApprovals, review, reviewPage } from '@/test/reviews';

// Approval of replies on /reviews (ADR 0093): asked for when the agency requires it, decided
// by the store (as is, edited, or sent back), withdrawn by its author, switched by the agency.

const pending = (over: Partial<ReviewApprovalView> = {}): ReviewApprovalView => ({
  id: 31,
  review_id: 7,
  user_id: 1,
  state: 'pending',
  comment: 'ご来店ありがとうございました。',
  override: false,
  author_email: 'agency@tenpo.example',
  can_decide: true,
  can_withdraw: false,
  decided_by_email: null,
  decided_at: null,
  note: null,
  created_at: '2026-04-02T01:00:00Z',
  expires_at: '2026-04-09T01:00:00Z',
  sent_at: null,
  google_state: null,
  ...over,
});

const noFindings = () => ok({ rule_sets: ['general'], findings: [] });
const bodies = (calls: MockRequest[], path: string) =>
  calls.filter((c) => c.path === path).map((c) => c.body);

describe('/reviews: approval of replies', () => {
  beforeEach(resetState);

  it('with the rule on, writing a reply asks for approval', async () => {
    const { calls } = mockApi({
      ...noApprovals,
      'GET /reviews': ok(reviewPage([review(7, { approval_required: true })])),
      'POST /reviews/check': noFindings,
      'POST /reviews/7/approvals': ok(review(7, { approval: pending({ can_decide: false }) })),
    });
    signIn();
    renderAt('/reviews');
    const card = within(await screen.findByTestId('review-7'));
    await userEvent.click(card.getByRole('button', { name: '返信する' }));
    expect(
      card.getByText('この店舗の返信は、店舗または代理店の承認後に Google に送信されます。'),
    ).toBeInTheDocument();
    await userEvent.type(card.getByLabelText('返信内容'), 'ありがとうございます');
    await userEvent.click(card.getByRole('button', { name: '承認を依頼' }));
    await waitFor(() =>
      expect(bodies(calls, '/reviews/7/approvals')).toEqual([
        { user_id: '1', comment: 'ありがとうございます', override: false },
      ]),
    );
    expect(bodies(calls, '/reviews/7/reply')).toEqual([]);
  });

  it('the store approves a request as it is, or edits it first', async () => {
    const { calls } = mockApi({
      ...noApprovals,
      'GET /reviews': ok(reviewPage([review(7, { approval_required: true, approval: pending() })])),
      'POST /reviews/check': noFindings,
      'POST /reviews/approvals/31/approve': ok(review(7)),
    });
    signIn();
    renderAt('/reviews');
    const card = within(await screen.findByTestId('review-7'));
    const box = within(card.getByTestId('review-approval'));
    expect(box.getByText('承認待ち')).toBeInTheDocument();
    expect(box.getByText('ご来店ありがとうございました。')).toBeInTheDocument();
    await userEvent.click(box.getByRole('button', { name: '承認して送信' }));
    await waitFor(() =>
      expect(bodies(calls, '/reviews/approvals/31/approve')).toEqual([
        { user_id: '1', override: false },
      ]),
    );

    await userEvent.click(box.getByRole('button', { name: '編集して承認' }));
    const field = card.getByLabelText('返信内容');
    expect(field).toHaveValue('ご来店ありがとうございました。');
    await userEvent.type(field, 'またお待ちしております。');
    await userEvent.click(card.getByRole('button', { name: '承認して送信' }));
    await waitFor(() =>
      expect(bodies(calls, '/reviews/approvals/31/approve').at(-1)).toEqual({
        user_id: '1',
        comment: 'ご来店ありがとうございました。またお待ちしております。',
        override: false,
      }),
    );
  });

  it('sends a request back with a note; its author sees withdraw, not approve', async () => {
    const { calls } = mockApi({
      ...noApprovals,
      'GET /reviews': ok(
        reviewPage([
          review(7, { approval_required: true, approval: pending() }),
          review(8, {
            approval_required: true,
            approval: pending({ id: 32, review_id: 8, can_decide: false, can_withdraw: true }),
          }),
        ]),
      ),
      'POST /reviews/approvals/31/reject': ok(review(7)),
      'DELETE /reviews/approvals/32': ok(review(8)),
    });
    signIn();
    renderAt('/reviews');
    const card = within(await screen.findByTestId('review-7'));
    await userEvent.click(card.getByRole('button', { name: '差し戻す' }));
    const dialog = within(await screen.findByRole('dialog', { name: '返信の差し戻し' }));
    await userEvent.type(dialog.getByLabelText(/差し戻しの理由/), 'お名前を入れてください');
    await userEvent.click(dialog.getByRole('button', { name: '差し戻す' }));
    await waitFor(() =>
      expect(bodies(calls, '/reviews/approvals/31/reject')).toEqual([
        { user_id: '1', note: 'お名前を入れてください' },
      ]),
    );

    const mine = within(screen.getByTestId('review-8'));
    expect(mine.queryByRole('button', { name: '承認して送信' })).toBeNull();
    await userEvent.click(mine.getByRole('button', { name: '依頼を取り下げ' }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'DELETE' && c.path === '/reviews/approvals/32')).toBe(
        true,
      ),
    );
  });

  it("an agency switches its stores' rule on", async () => {
    const { calls } = mockApi({
      ...noApprovals,
      'GET /refresh-token': ok(loginData({ id: 6, role: ROLE.agency })),
      'GET /agency/stores': ok({ data: [], current_page: 1, last_page: 1, total: 0, per_page: 5 }),
      'GET /agency/groups': ok([]),
      'GET /reviews': ok(reviewPage([review(7)])),
      'GET /reviews/approval-settings': ok({
        agency_id: 6,
        replies_need_approval: false,
        can_edit: true,
      }),
      'PUT /reviews/approval-settings': ok({
        agency_id: 6,
        replies_need_approval: true,
        can_edit: true,
      }),
    });
    signIn({ id: 6, role: ROLE.agency });
    selectStores(
      [
        {
          id: 7,
          name: '店舗7',
          status: 1,
          role: 1,
          in_trial: false,
          agency_logo: null,
          agent_code: '1001',
          company_name: '会社',
          person_in_charge: '担当',
          email: 's7@tenpo.example',
          google_status: 1,
          payment_fail: false,
        },
      ],
      null,
    );
    renderAt('/reviews');
    const toggle = await screen.findByRole(
      'switch',
      { name: /^店舗の返信に承認を必須にする/ },
      { timeout: 5000 },
    );
    expect(toggle).not.toBeChecked();
    await userEvent.click(toggle);
    await waitFor(() =>
      expect(
        bodies(
          calls.filter((c) => c.method === 'PUT'),
          '/reviews/approval-settings',
        ),
      ).toEqual([{ user_id: '6', replies_need_approval: true }]),
    );
    await waitFor(() => expect(toggle).toBeChecked());
  });
});
