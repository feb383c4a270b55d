import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { api as callApi } from '../../lib/api-client';
import {
  fail,
  loginData,
  mockApi as mockApiOnly,
  ok,
  renderAt,
  resetState,
  signIn,
  type MockReply,
} from '../../test/render';
import { noPostApprovals } from '../../features/posts/approval/test-mocks';

/** /posts and the post form also read posts' approval (ADR 0095): none waits, no rule holds. */
const mockApi = (table: Record<string, MockReply>) => mockApiOnly({ ...noPostApprovals, ...table });

// Issue 23 item 3: typed work on /create-post survives a reload, a new sign-in and a 401.

const publishers = () =>
  ok([
    {
      publisher_id: 1,
      publisher_key: 'google_my_business',
      publisher_name: 'google_my_business',
      logo_url: '/images/publisher/google_my_business.svg',
      entity_id: null,
      location_name: null,
      postal_code: null,
      address_lines: [],
      store_code: null,
      status: 2,
      log: [],
    },
  ]);

const reads = (over: Record<string, MockReply> = {}) => ({
  'GET /publisher': publishers(),
  'GET /entity/basic-information': ok({
    core_information: { main_phone: null },
    contact_website_apps: {},
    business_details: {},
  }),
  'GET /refresh-token': ok(loginData()),
  ...over,
});

const contentBox = () => screen.findByRole('textbox', { name: /投稿内容/ });
const draftKeys = () => Object.keys(localStorage).filter((k) => k.startsWith('tenpo.postDraft'));

const typeAndWaitForDraft = async (text: string) => {
  await userEvent.type(await contentBox(), text);
  await waitFor(() => expect(draftKeys()).toHaveLength(1), { timeout: 2000 });
};

describe('/create-post drafts', () => {
  beforeEach(() => {
    resetState();
    sessionStorage.clear();
  });

  it('saves the typed post and restores it when the form opens again, with a notice', async () => {
    mockApi(reads());
    signIn();
    const first = renderAt('/create-post');
    await typeAndWaitForDraft('本日のおすすめはクロワッサンです');
    first.unmount();

    renderAt('/create-post');
    expect(await contentBox()).toHaveValue('本日のおすすめはクロワッサンです');
    expect(screen.getByText('保存されていた下書きを復元しました。')).toBeInTheDocument();
  });

  it('keeps drafts per signed-in user: another user does not get them', async () => {
    mockApi(reads());
    signIn();
    const first = renderAt('/create-post');
    await typeAndWaitForDraft('店長の下書き');
    first.unmount();

    resetState();
    signIn({ id: 2, email: 'other@tenpo.example' });
    renderAt('/create-post');
    expect(await contentBox()).toHaveValue('');
    expect(screen.queryByText('保存されていた下書きを復元しました。')).not.toBeInTheDocument();
  });

  it('discarding the restored draft empties the form and forgets the draft', async () => {
    mockApi(reads());
    signIn();
    const first = renderAt('/create-post');
    await typeAndWaitForDraft('捨てる下書き');
    first.unmount();

    renderAt('/create-post');
    await userEvent.click(await screen.findByRole('button', { name: '下書きを破棄' }));
    expect(await contentBox()).toHaveValue('');
    expect(draftKeys()).toEqual([]);
    expect(screen.queryByText('保存されていた下書きを復元しました。')).not.toBeInTheDocument();
  });

  it('a post that was accepted forgets its draft', async () => {
    mockApi(
      reads({
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
      }),
    );
    signIn();
    const { router } = renderAt('/create-post');
    await typeAndWaitForDraft('新メニュー');
    await userEvent.click(screen.getByRole('button', { name: '投稿する' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/posts'));
    await new Promise((r) => setTimeout(r, 700));
    expect(draftKeys()).toEqual([]);
  });

  it('after a 401 the login brings the user back to /create-post with the draft', async () => {
    mockApi(reads());
    signIn();
    const { router } = renderAt('/create-post');
    await typeAndWaitForDraft('セッションが切れても残る文章');

    // The session ends: the next call answers 401.
    mockApi(reads({ 'GET /publisher': fail(401, {}), 'POST /login': ok(loginData()) }));
    await callApi('/publisher').catch(() => undefined);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));

    fireEvent.change(await screen.findByRole('textbox', { name: 'メールアドレス' }), {
      target: { value: 'shop@tenpo.example' },
    });
    fireEvent.change(screen.getByLabelText(/^パスワード\s*\*?$/), {
      target: { value: 'tenpo-demo-1' },
    });
    mockApi(reads({ 'POST /login': ok(loginData()) }));
    await userEvent.click(screen.getByRole('button', { name: 'ログイン' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/create-post'));
    expect(await contentBox()).toHaveValue('セッションが切れても残る文章');
  }, 30_000);

  it('asks before a changed form is left for another screen, and stays when refused', async () => {
    mockApi(reads());
    signIn();
    const { router } = renderAt('/create-post');
    await userEvent.type(await contentBox(), '書きかけ');
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    await router.navigate('/posts');
    await waitFor(() => expect(confirm).toHaveBeenCalled());
    expect(router.state.location.pathname).toBe('/create-post');
    expect(await contentBox()).toHaveValue('書きかけ');
    // The browser's own prompt is asked for too.
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);
  });
});
