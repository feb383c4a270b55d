import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, loginData, mockApi, ok, renderAt, resetState, signIn } from '../../test/render';

const byLabel = (re: RegExp) => screen.getByLabelText(re);

describe('/forgot-password', () => {
  beforeEach(resetState);

  it('requires a valid email (spec 1 §5)', async () => {
    mockApi({});
    renderAt('/forgot-password');
    const send = await screen.findByRole('button', { name: '再設定メールを送信' });
    await userEvent.click(send);
    expect(await screen.findByText('メールアドレス を入力してください。')).toBeInTheDocument();
    await userEvent.type(byLabel(/^メールアドレス/), 'abc@');
    await userEvent.click(send);
    expect(await screen.findByText('メールアドレスが正しくありません。')).toBeInTheDocument();
  });

  it('shows the success message', async () => {
    const { calls } = mockApi({ 'POST /forgot-password': ok(null, '送信しました。') });
    renderAt('/forgot-password');
    await userEvent.type(await screen.findByLabelText(/^メールアドレス/), 'shop@tenpo.example');
    await userEvent.click(screen.getByRole('button', { name: '再設定メールを送信' }));
    expect(await screen.findByRole('status')).toHaveTextContent('送信しました。');
    expect(calls[0]?.body).toEqual({ email: 'shop@tenpo.example' });
  });
});

describe('/reset-password', () => {
  beforeEach(resetState);

  it('validates the password pair (spec 1 §5)', async () => {
    mockApi({});
    renderAt('/reset-password?token=t1&email=shop%40tenpo.example');
    const submit = await screen.findByRole('button', { name: 'パスワードを再設定' });
    await userEvent.click(submit);
    expect(await screen.findByText('パスワード を入力してください。')).toBeInTheDocument();
    expect(screen.getByText('パスワード（確認） を入力してください。')).toBeInTheDocument();
    await userEvent.type(byLabel(/^パスワード \*?$|^パスワード$/), 'short');
    await userEvent.type(byLabel(/^パスワード（確認）/), 'short');
    await userEvent.click(submit);
    expect(
      await screen.findByText('パスワードは8文字以上で入力してください。'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('パスワード（確認）は8文字以上で入力してください。'),
    ).toBeInTheDocument();
  });

  it('requires the confirmation to equal the password, then replaces the route with /login', async () => {
    const { calls } = mockApi({ 'POST /reset-password': ok(null, '再設定しました。') });
    const { router } = renderAt('/reset-password?token=t1&email=shop%40tenpo.example');
    const pw = await screen.findByLabelText(/^パスワード\s*\*?$/);
    await userEvent.type(pw, 'new-password-1');
    await userEvent.type(byLabel(/^パスワード（確認）/), 'new-password-2');
    await userEvent.click(screen.getByRole('button', { name: 'パスワードを再設定' }));
    expect(
      await screen.findByText('パスワード（確認）がパスワードと一致しません。'),
    ).toBeInTheDocument();
    await userEvent.clear(byLabel(/^パスワード（確認）/));
    await userEvent.type(byLabel(/^パスワード（確認）/), 'new-password-1');
    await userEvent.click(screen.getByRole('button', { name: 'パスワードを再設定' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(calls[0]?.body).toEqual({
      password: 'new-password-1',
      password_confirmation: 'new-password-1',
      token: 't1',
      email: 'shop@tenpo.example',
    });
  });

  it('says the link is wrong when the query values are missing', async () => {
    mockApi({});
    renderAt('/reset-password');
    expect(await screen.findByText(/リンクが正しくありません/)).toBeInTheDocument();
  });

  it('shows a bad token error from the server', async () => {
    mockApi({ 'POST /reset-password': fail(422, { token: ['リンクが無効です。'] }) });
    renderAt('/reset-password?token=bad&email=shop%40tenpo.example');
    await userEvent.type(await screen.findByLabelText(/^パスワード\s*\*?$/), 'new-password-1');
    await userEvent.type(byLabel(/^パスワード（確認）/), 'new-password-1');
    await userEvent.click(screen.getByRole('button', { name: 'パスワードを再設定' }));
    expect(await screen.findByText('リンクが無効です。')).toBeInTheDocument();
  });
});

describe('/register-account', () => {
  beforeEach(resetState);

  it('on a bad token shows the error, counts down 10 seconds and goes to /register-information', async () => {
    mockApi({
      'POST /register/verify-token': fail(422, {
        token: ['アクセストークンの有効期限が切れました。'],
      }),
    });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const { router } = renderAt('/register-account?token=expired');
      expect(
        await screen.findByText('アクセストークンの有効期限が切れました。'),
      ).toBeInTheDocument();
      expect(screen.getByText('10 秒後に新規登録画面へ移動します。')).toBeInTheDocument();
      for (let i = 0; i < 5; i += 1) {
        await act(async () => {
          await vi.advanceTimersByTimeAsync(1000);
        });
      }
      expect(screen.getByText('5 秒後に新規登録画面へ移動します。')).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/register-account');
      for (let i = 0; i < 5; i += 1) {
        await act(async () => {
          await vi.advanceTimersByTimeAsync(1000);
        });
      }
      await waitFor(() => expect(router.state.location.pathname).toBe('/register-information'));
      // Replaced, not pushed: Back does not come back to the dead link's countdown.
      expect(router.state.historyAction).toBe('REPLACE');
    } finally {
      vi.useRealTimers();
    }
  });

  it('the button leaves at once', async () => {
    mockApi({ 'POST /register/verify-token': fail(422, { token: ['無効です。'] }) });
    const { router } = renderAt('/register-account?token=bad');
    await userEvent.click(await screen.findByRole('button', { name: '今すぐ新規登録画面へ' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/register-information'));
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('with a good token shows the email read-only and validates the pair', async () => {
    const { calls } = mockApi({
      'POST /register/verify-token': ok({ email: 'new@tenpo.example' }),
      'POST /register': ok(null, '登録しました。'),
    });
    const { router } = renderAt('/register-account?token=good');
    const emailBox = await screen.findByRole('textbox', { name: 'メールアドレス' });
    expect(emailBox).toHaveValue('new@tenpo.example');
    expect(emailBox).toHaveAttribute('readonly');
    await userEvent.click(screen.getByRole('button', { name: '登録する' }));
    expect(await screen.findByText('パスワード を入力してください。')).toBeInTheDocument();
    await userEvent.type(byLabel(/^パスワード\s*\*?$/), 'password-123');
    await userEvent.type(byLabel(/^パスワード（確認）/), 'password-123');
    await userEvent.click(screen.getByRole('button', { name: '登録する' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(calls[1]?.body).toEqual({
      email: 'new@tenpo.example',
      password: 'password-123',
      password_confirmation: 'password-123',
      token: 'good',
    });
  });
});

describe('public routes when signed in', () => {
  beforeEach(resetState);

  it('send a signed-in user home', async () => {
    mockApi({ 'GET /refresh-token': ok(loginData()) });
    signIn();
    const { router } = renderAt('/forgot-password');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it.each(['/login', '/forgot-password', '/register-information'])(
    'a tab that opens %s while the browser is signed in goes home, still signed in: no warning (issue 23 item 4)',
    async (path) => {
      const { calls } = mockApi({ 'GET /refresh-token': ok(loginData()) });
      localStorage.setItem('token', 'this-browser');
      const { router } = renderAt(path);
      await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
      expect(screen.queryByRole('dialog', { name: 'ログイン状態が変わりました' })).toBeNull();
      expect(localStorage.getItem('token')).toBe('token-1');
      expect(calls.some((c) => c.path === '/logout')).toBe(false);
    },
  );

  it('the privacy policy opened signed in is shown, and nobody is logged out or sent away', async () => {
    const { calls } = mockApi({});
    signIn();
    const { router } = renderAt('/facebook-terms-and-privacy');
    expect(
      await screen.findByRole('heading', { name: /プライバシーポリシー/, level: 1 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/facebook-terms-and-privacy');
    expect(localStorage.getItem('token')).toBe('token-1');
    expect(calls).toHaveLength(0);
  });

  it('the privacy policy opened in a new tab of a signed-in browser keeps its token', async () => {
    const { calls } = mockApi({});
    localStorage.setItem('token', 'this-browser');
    const { router } = renderAt('/facebook-terms-and-privacy');
    expect(
      await screen.findByRole('heading', { name: /プライバシーポリシー/, level: 1 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/facebook-terms-and-privacy');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(localStorage.getItem('token')).toBe('this-browser');
    expect(calls).toHaveLength(0);
  });

  it('a reset link for the signed-in account goes home, no warning', async () => {
    mockApi({ 'GET /refresh-token': ok(loginData()) });
    localStorage.setItem('token', 'this-browser');
    const { router } = renderAt('/reset-password?token=t1&email=Shop%40tenpo.example');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(screen.queryByRole('dialog', { name: 'ログイン状態が変わりました' })).toBeNull();
  });

  it('a reset link for another e-mail warns that another account is signed in; confirming logs out there', async () => {
    const { calls } = mockApi({
      'GET /refresh-token': ok(loginData()),
      'GET /logout': ok(null, 'ログアウトしました。'),
    });
    localStorage.setItem('token', 'this-browser');
    const { router } = renderAt('/reset-password?token=t1&email=other%40tenpo.example');
    const dialog = await screen.findByRole('dialog', { name: 'ログイン状態が変わりました' });
    expect(within(dialog).getByText(/すでに別のアカウントでログインしている/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(localStorage.getItem('token')).toBeNull());
    expect(calls.some((c) => c.path === '/logout')).toBe(true);
    expect(router.state.location.pathname).toBe('/reset-password');
    expect(await screen.findByRole('button', { name: 'パスワードを再設定' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'ログイン状態が変わりました' })).toBeNull();
  });

  it('a registration link names its account once verified: another e-mail warns, and the form follows', async () => {
    mockApi({
      'GET /refresh-token': ok(loginData()),
      'POST /register/verify-token': ok({ email: 'new@tenpo.example' }),
      'GET /logout': ok(null, 'ログアウトしました。'),
    });
    signIn();
    const { router } = renderAt('/register-account?token=good');
    const dialog = await screen.findByRole('dialog', { name: 'ログイン状態が変わりました' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(localStorage.getItem('token')).toBeNull());
    expect(router.state.location.pathname).toBe('/register-account');
    expect(await screen.findByRole('textbox', { name: 'メールアドレス' })).toHaveValue(
      'new@tenpo.example',
    );
  });

  it('a dead registration link opened signed in goes home: it names no other account', async () => {
    mockApi({
      'POST /register/verify-token': fail(422, { token: ['無効です。'] }),
    });
    signIn();
    const { router } = renderAt('/register-account?token=used');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(screen.queryByRole('dialog', { name: 'ログイン状態が変わりました' })).toBeNull();
  });
});

describe('unknown paths', () => {
  it('show Page Not Found with a link to the main page', async () => {
    mockApi({});
    renderAt('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'メインページへ' })).toHaveAttribute('href', '/');
  });
});

describe('/confirm-email (issue 22 item 4, ADR 0065)', () => {
  beforeEach(resetState);

  it('applies the mailed link with a button and says so; signed in or not', async () => {
    const { calls } = mockApi({
      'POST /account-setting/email/confirm': ok(
        { email: 'new@tenpo.example' },
        'メールアドレスを変更しました。次回から新しいメールアドレスでログインしてください。',
      ),
    });
    signIn();
    const { router } = renderAt('/confirm-email?token=t1');
    // Nothing is sent on open: a mail scanner following the link changes nothing.
    const go = await screen.findByRole('button', { name: 'メールアドレスを変更する' });
    expect(calls).toHaveLength(0);
    expect(router.state.location.pathname).toBe('/confirm-email');
    await userEvent.click(go);
    expect(await screen.findByRole('status')).toHaveTextContent(
      'メールアドレスを変更しました。次回から新しいメールアドレスでログインしてください。',
    );
    expect(screen.getByText('新しいメールアドレス: new@tenpo.example')).toBeInTheDocument();
    expect(calls[0]?.body).toEqual({ token: 't1' });
  });

  it('shows the server error for a used link, and a missing token without calling', async () => {
    mockApi({
      'POST /account-setting/email/confirm': fail(422, {
        token: ['メールアドレス変更のリンクが無効か、有効期限が切れています。'],
      }),
    });
    renderAt('/confirm-email?token=used');
    await userEvent.click(await screen.findByRole('button', { name: 'メールアドレスを変更する' }));
    expect(
      await screen.findByText('メールアドレス変更のリンクが無効か、有効期限が切れています。'),
    ).toBeInTheDocument();
  });
});
