import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  postApprovalJa,
  ROLE,
  type PostApprovalItemView,
  type PostApprovalView,
  type PublisherKey,
  type StoreRow,
} from '@tenpo/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import { selectStores } from '@/lib/selection';
import {
  fail,
  loginData,
  mockApi,
  ok,
  renderAt,
  resetState,
  signIn,
  type MockReply,
  type MockRequest,
} from '@/test/render';
import type { PostRow, PostTarget } from '../api/posts-api';
import { approvalSettings, noPostApprovals } from '../approval/test-mocks';

// Approval of posts (ADR 0095): the states it adds to /posts, the panel of requests waiting
// for a decision (承認 / 差し戻す / 取り下げ), the agency's switch, and the post form's notice.

const request = (over: Partial<PostApprovalView> = {}): PostApprovalView => ({
  id: 41,
  post_id: 4,
  user_id: 1,
  state: 'pending',
  author_email: 'staff@tenpo.example',
  can_decide: true,
  can_withdraw: false,
  decided_by_email: null,
  decided_at: null,
  note: null,
  created_at: '2026-04-02T01:00:00Z',
  expires_at: '2026-04-09T01:00:00Z',
  ...over,
});

const item = (over: Partial<PostApprovalItemView> = {}): PostApprovalItemView => ({
  ...request(),
  store_name: '青木ベーカリー 恵比寿店',
  content: '春の新作パン\nいちごのデニッシュが登場しました',
  shared_sns_type: 'google_my_business,instagram',
  publish_date: '2099-04-10 09:00:00',
  delete_date: null,
  media_url: [],
  post_type: 'news',
  title: null,
  ...over,
});

const target = (id: number, over: Partial<PostTarget> = {}): PostTarget => ({
  id,
  user_id: 1,
  publisher_key: 'google_my_business',
  state: 'scheduled',
  time: '2026-04-10 09:00:00',
  url: null,
  errors: [],
  retryable: false,
  ...over,
});

const post = (id: number, over: Partial<PostRow> = {}): PostRow => ({
  id,
  content: `投稿${id}`,
  created_at: '2026-04-01T00:00:00Z',
  publish_date: '2026-04-10 09:00:00',
  delete_date: null,
  media_url: [],
  targets: [target(id * 10)],
  ...over,
});

const page = <T,>(rows: T[], per = 5) => ({
  data: {
    data: rows,
    current_page: 1,
    last_page: 1,
    total: rows.length,
    per_page: per,
    from: rows.length ? 1 : null,
    to: rows.length ? rows.length : null,
  },
});

const queue = (rows: PostApprovalItemView[]): MockReply => ok(page(rows, 10));

const calledWith = (calls: MockRequest[], method: string, path: string) =>
  calls.filter((c) => c.method === method && c.path === path);

const store = (id: number): StoreRow => ({
  id,
  name: `店舗${id}`,
  status: 1,
  role: 1,
  in_trial: false,
  agency_logo: null,
  agent_code: '1001',
  company_name: '会社',
  person_in_charge: '担当',
  email: `s${id}@tenpo.example`,
  google_status: 2,
  payment_fail: false,
});

/** The reads of an agency's shell (its store picker). */
const agencyShell = (id: number): Record<string, MockReply> => ({
  'GET /refresh-token': ok(loginData({ id, role: ROLE.agency })),
  'GET /agency/stores': ok({ data: [], current_page: 1, last_page: 1, total: 0, per_page: 5 }),
  'GET /agency/groups': ok([]),
  'GET /stores': ok([]),
});

describe('/posts: states of approval', () => {
  beforeEach(resetState);

  it('labels posts waiting for approval and those not approved, with the note', async () => {
    mockApi({
      ...noPostApprovals,
      'GET /posts': ok(
        page([
          post(1, {
            state: 'awaiting_approval',
            approval: request({ post_id: 1 }),
            targets: [target(11, { state: 'awaiting_approval' })],
          }),
          post(2, {
            state: 'not_approved',
            approval: request({
              id: 42,
              post_id: 2,
              state: 'rejected',
              note: '価格を直してください',
            }),
            targets: [target(21, { state: 'not_approved' })],
          }),
          post(3, {
            state: 'not_approved',
            approval: request({ id: 43, post_id: 3, state: 'expired' }),
            targets: [target(31, { state: 'not_approved' })],
          }),
          post(5, {
            state: 'not_approved',
            approval: request({ id: 45, post_id: 5, state: 'withdrawn' }),
            targets: [target(51, { state: 'not_approved' })],
          }),
        ]),
      ),
    });
    signIn();
    renderAt('/posts');
    const waiting = within(await screen.findByTestId('target-11'));
    expect(waiting.getByText('承認待ち')).toBeInTheDocument();
    expect(
      within(screen.getByTestId('target-21')).getByText('承認されず（差し戻し）'),
    ).toBeInTheDocument();
    expect(
      within(screen.getByTestId('post-2')).getByText(/差し戻しの理由: 価格を直してください/),
    ).toBeInTheDocument();
    expect(
      within(screen.getByTestId('target-31')).getByText('承認されず（期限切れ）'),
    ).toBeInTheDocument();
    expect(
      within(screen.getByTestId('target-51')).getByText('承認されず（取り下げ）'),
    ).toBeInTheDocument();
    expect(within(screen.getByTestId('post-1')).queryByTestId('post-approval-note')).toBeNull();
  });
});

describe('/posts: the panel of posts waiting for approval', () => {
  beforeEach(resetState);

  it('is hidden when no post waits', async () => {
    const { calls } = mockApi({ ...noPostApprovals, 'GET /posts': ok(page([post(1)])) });
    signIn();
    renderAt('/posts');
    await screen.findByTestId('post-1');
    await waitFor(() => expect(calledWith(calls, 'GET', '/posts/approvals')).toHaveLength(1));
    expect(calledWith(calls, 'GET', '/posts/approvals')[0]?.url.searchParams.get('user_id')).toBe(
      '1',
    );
    expect(screen.queryByText(/承認待ちの投稿/)).toBeNull();
  });

  it('lists the requests and approves one; the list and the panel read again', async () => {
    const { calls } = mockApi({
      'GET /posts/approvals': queue([
        item({ publish_date: '2020-04-10 09:00:00' }),
        item({ id: 42, post_id: 5, content: '別の投稿', can_decide: false, can_withdraw: true }),
      ]),
      'GET /posts': ok(page([post(4, { state: 'awaiting_approval' })])),
      'POST /posts/approvals/41/approve': ok(post(4), postApprovalJa.approvedNow),
    });
    signIn();
    renderAt('/posts');
    const panel = within(await screen.findByRole('region', { name: '承認待ちの投稿（2件）' }));
    const first = within(panel.getByTestId('post-approval-41'));
    expect(first.getByText('青木ベーカリー 恵比寿店')).toBeInTheDocument();
    expect(first.getByText('春の新作パン いちごのデニッシュが登場しました')).toBeInTheDocument();
    expect(first.getByText('Google')).toBeInTheDocument();
    expect(first.getByText('Instagram')).toBeInTheDocument();
    expect(first.getByText('投稿日時: 2020/04/10 09:00:00')).toBeInTheDocument();
    expect(
      first.getByText('投稿日時を過ぎています。承認するとすぐに投稿されます'),
    ).toBeInTheDocument();
    expect(first.getByText(/staff@tenpo\.example さんが依頼/)).toBeInTheDocument();
    // Not yet due: no flag; its author sees 取り下げ, not 承認.
    const second = within(panel.getByTestId('post-approval-42'));
    expect(second.queryByText(/投稿日時を過ぎています/)).toBeNull();
    expect(second.queryByRole('button', { name: /承認$/ })).toBeNull();
    expect(second.getByRole('button', { name: /取り下げ$/ })).toBeInTheDocument();

    const before = calledWith(calls, 'GET', '/posts').length;
    const queueReads = calledWith(calls, 'GET', '/posts/approvals').length;
    await userEvent.click(
      first.getByRole('button', { name: '青木ベーカリー 恵比寿店の投稿を承認' }),
    );
    await waitFor(() =>
      expect(calledWith(calls, 'POST', '/posts/approvals/41/approve').map((c) => c.body)).toEqual([
        { user_id: '1' },
      ]),
    );
    expect(await screen.findByText(postApprovalJa.approvedNow)).toBeInTheDocument();
    await waitFor(() => {
      expect(calledWith(calls, 'GET', '/posts').length).toBeGreaterThan(before);
      expect(calledWith(calls, 'GET', '/posts/approvals').length).toBeGreaterThan(queueReads);
    });
  });

  it('sends a request back with a note', async () => {
    const { calls } = mockApi({
      'GET /posts/approvals': queue([item()]),
      'GET /posts': ok(page([post(4)])),
      'POST /posts/approvals/41/reject': ok(post(4), postApprovalJa.rejected),
    });
    signIn();
    renderAt('/posts');
    const box = within(await screen.findByTestId('post-approval-41'));
    await userEvent.click(box.getByRole('button', { name: /差し戻す$/ }));
    const dialog = within(await screen.findByRole('dialog', { name: '投稿の差し戻し' }));
    const note = dialog.getByLabelText(/差し戻しの理由/);
    expect(note).toHaveAttribute('maxlength', '500');
    await userEvent.type(note, '価格を直してください');
    await userEvent.click(dialog.getByRole('button', { name: '差し戻す' }));
    await waitFor(() =>
      expect(calledWith(calls, 'POST', '/posts/approvals/41/reject').map((c) => c.body)).toEqual([
        { user_id: '1', note: '価格を直してください' },
      ]),
    );
    expect(await screen.findByText(postApprovalJa.rejected)).toBeInTheDocument();
  });

  it('its author withdraws a request', async () => {
    const { calls } = mockApi({
      'GET /posts/approvals': queue([item({ can_decide: false, can_withdraw: true })]),
      'GET /posts': ok(page([post(4)])),
      'DELETE /posts/approvals/41': ok(post(4), postApprovalJa.withdrawn),
    });
    signIn();
    renderAt('/posts');
    const box = within(await screen.findByTestId('post-approval-41'));
    expect(box.queryByRole('button', { name: /差し戻す$/ })).toBeNull();
    await userEvent.click(box.getByRole('button', { name: /取り下げ$/ }));
    await waitFor(() => {
      const del = calledWith(calls, 'DELETE', '/posts/approvals/41');
      expect(del).toHaveLength(1);
      expect(del[0]?.url.searchParams.get('user_id')).toBe('1');
    });
    expect(await screen.findByText(postApprovalJa.withdrawn)).toBeInTheDocument();
  });

  it('shows why a decision was refused (409: already decided)', async () => {
    mockApi({
      'GET /posts/approvals': queue([item()]),
      'GET /posts': ok(page([post(4)])),
      'POST /posts/approvals/41/approve': fail(409, {}, postApprovalJa.decided),
    });
    signIn();
    renderAt('/posts');
    const box = within(await screen.findByTestId('post-approval-41'));
    await userEvent.click(box.getByRole('button', { name: /承認$/ }));
    expect(await box.findByRole('alert')).toHaveTextContent(postApprovalJa.decided);
  });
});

describe('/posts: the agency switches its stores’ rule', () => {
  beforeEach(resetState);

  it('「店舗の投稿に承認を必須にする」 sends posts_need_approval only', async () => {
    const { calls } = mockApi({
      ...agencyShell(6),
      ...noPostApprovals,
      'GET /posts': ok(page([])),
      'GET /reviews/approval-settings': approvalSettings({ agency_id: 6, can_edit: true }),
      'PUT /reviews/approval-settings': ok(
        { agency_id: 6, replies_need_approval: false, posts_need_approval: true, can_edit: true },
        postApprovalJa.settingsSaved,
      ),
    });
    signIn({ id: 6, role: ROLE.agency });
    selectStores([store(7)], null);
    renderAt('/posts');
    const toggle = await screen.findByRole('switch', { name: /^店舗の投稿に承認を必須にする/ });
    expect(toggle).not.toBeChecked();
    await userEvent.click(toggle);
    await waitFor(() =>
      expect(calledWith(calls, 'PUT', '/reviews/approval-settings').map((c) => c.body)).toEqual([
        { user_id: '6', posts_need_approval: true },
      ]),
    );
    await waitFor(() => expect(toggle).toBeChecked());
    expect(await screen.findByText(postApprovalJa.settingsSaved)).toBeInTheDocument();
    expect(
      calledWith(calls, 'GET', '/reviews/approval-settings')[0]?.url.searchParams.get('user_id'),
    ).toBe('6');
  });

  it('a store sees no switch', async () => {
    mockApi({ ...noPostApprovals, 'GET /posts': ok(page([post(1)])) });
    signIn();
    renderAt('/posts');
    await screen.findByTestId('post-1');
    expect(screen.queryByRole('switch')).toBeNull();
  });
});

describe('/create-post: the approval notice', () => {
  beforeEach(resetState);

  const publishers = (keys: PublisherKey[]) =>
    ok(
      keys.map((k, i) => ({
        publisher_id: i + 1,
        publisher_key: k,
        publisher_name: k,
        logo_url: null,
        entity_id: null,
        location_name: null,
        postal_code: null,
        address_lines: [],
        store_code: null,
        status: 2,
        log: [],
      })),
    );
  const formReads = (over: Record<string, MockReply> = {}): Record<string, MockReply> => ({
    'GET /publisher': publishers(['google_my_business']),
    'GET /entity/basic-information': ok({ core_information: { main_phone: null } }),
    ...over,
  });
  const notice = 'この店舗の投稿は、承認されてから予約どおりに投稿されます。';
  const noticeAll = '選択中の店舗の投稿は、承認されてから予約どおりに投稿されます。';

  it("says the store's posts wait for approval, near the submit button", async () => {
    const { calls } = mockApi(
      formReads({
        'GET /reviews/approval-settings': approvalSettings({
          agency_id: 6,
          posts_need_approval: true,
        }),
        'POST /posts': ok(
          {
            submission_id: 's1',
            post_count: 1,
            held_count: 1,
            posts: [post(9, { state: 'awaiting_approval' })],
            notes: [],
          },
          postApprovalJa.created(1, 1),
        ),
        'GET /posts': ok(page([])),
        'GET /posts/approvals': noPostApprovals['GET /posts/approvals'],
      }),
    );
    signIn();
    renderAt('/create-post');
    expect(await screen.findByText(notice)).toBeInTheDocument();
    expect(
      calledWith(calls, 'GET', '/reviews/approval-settings').map((c) =>
        c.url.searchParams.get('user_id'),
      ),
    ).toEqual(['1']);
    await userEvent.type(await screen.findByRole('textbox', { name: /投稿内容/ }), 'お知らせ');
    const submit = await screen.findByRole('button', { name: '投稿する' });
    await waitFor(() => expect(submit).toBeEnabled());
    await userEvent.click(submit);
    // The answer says the post waits for approval, not the usual 「投稿を受け付けました。」.
    expect(await screen.findByText(postApprovalJa.created(1, 1))).toBeInTheDocument();
  });

  it('says nothing when the rule is off', async () => {
    const { calls } = mockApi(formReads(noPostApprovals));
    signIn();
    renderAt('/create-post');
    await screen.findByRole('button', { name: '投稿する' });
    await waitFor(() =>
      expect(calledWith(calls, 'GET', '/reviews/approval-settings')).toHaveLength(1),
    );
    expect(screen.queryByText(notice)).toBeNull();
  });

  it('an agency reads its rule once for all its selected stores', async () => {
    const { calls } = mockApi(
      formReads({
        ...agencyShell(6),
        'GET /reviews/approval-settings': approvalSettings({
          agency_id: 6,
          posts_need_approval: true,
          can_edit: true,
        }),
      }),
    );
    signIn({ id: 6, role: ROLE.agency });
    selectStores([store(7), store(8)], null);
    renderAt('/create-post');
    expect(await screen.findByText(noticeAll)).toBeInTheDocument();
    expect(
      calledWith(calls, 'GET', '/reviews/approval-settings').map((c) =>
        c.url.searchParams.get('user_id'),
      ),
    ).toEqual(['6']);
  });

  it('stores of different agencies with mixed rules: some of them', async () => {
    mockApi(
      formReads({
        'GET /refresh-token': ok(loginData({ id: 1, is_leader: true })),
        'GET /stores': ok([]),
        'GET /group-leader/stores': ok(page([store(7), store(8)]).data),
        'GET /reviews/approval-settings': (req) =>
          approvalSettings({ posts_need_approval: req.url.searchParams.get('user_id') === '7' }),
      }),
    );
    // A leader's stores may follow different agencies: each store's rule is read.
    signIn({ id: 1, is_leader: true });
    selectStores([store(7), store(8)], null);
    renderAt('/create-post');
    expect(
      await screen.findByText(
        '選択中の一部の店舗の投稿は、承認されてから予約どおりに投稿されます。',
      ),
    ).toBeInTheDocument();
  });
});
