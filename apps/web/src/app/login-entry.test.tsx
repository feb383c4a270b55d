import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fail, loginData, mockApi, ok, resetState } from '../test/render';
import { LoginEntry } from './login-entry';
import { Providers } from './providers';
import { createQueryClient } from '../lib/query-client';
import { setNavigator } from '../lib/navigation';

// /login's first render, without the router (ADR 0017): the same form and rules as the route.
const renderEntry = () => {
  const onSignedIn = vi.fn();
  render(
    <Providers client={createQueryClient()} env="test">
      <LoginEntry onSignedIn={onSignedIn} />
    </Providers>,
  );
  return { onSignedIn };
};
const password = () => screen.getByLabelText(/^パスワード\s*\*?$/);
const submit = () => screen.getByRole('button', { name: 'ログイン' });

describe('/login before the app has loaded', () => {
  beforeEach(resetState);

  it('names the screen in the document title and checks the fields as the route does', async () => {
    mockApi({});
    const { onSignedIn } = renderEntry();
    expect(document.title).toBe('ログイン | Tenpo');
    await userEvent.click(submit());
    expect(await screen.findByText('メールアドレス を入力してください。')).toBeInTheDocument();
    expect(screen.getByText('パスワード を入力してください。')).toBeInTheDocument();
    // The first wrong field takes focus; typing checks again.
    expect(screen.getByRole('textbox', { name: 'メールアドレス' })).toHaveFocus();
    await userEvent.type(screen.getByRole('textbox', { name: 'メールアドレス' }), 'not-an-email');
    expect(await screen.findByText('メールアドレスが正しくありません。')).toBeInTheDocument();
    expect(onSignedIn).not.toHaveBeenCalled();
  });

  it('signs in, stores the token and starts the app', async () => {
    const { calls } = mockApi({ 'POST /login': ok(loginData()) });
    const { onSignedIn } = renderEntry();
    await userEvent.type(
      screen.getByRole('textbox', { name: 'メールアドレス' }),
      'shop@tenpo.example',
    );
    await userEvent.type(password(), 'tenpo-demo-1');
    await userEvent.click(submit());
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledTimes(1));
    expect(calls[0]?.body).toEqual({ email: 'shop@tenpo.example', password: 'tenpo-demo-1' });
    expect(localStorage.getItem('token')).toMatch(/^token-/);
  });

  it('shows the server errors and stays', async () => {
    mockApi({
      'POST /login': fail(401, { email: ['メールアドレスまたはパスワードが正しくありません。'] }),
    });
    const { onSignedIn } = renderEntry();
    await userEvent.type(
      screen.getByRole('textbox', { name: 'メールアドレス' }),
      'shop@tenpo.example',
    );
    await userEvent.type(password(), 'wrong-password');
    await userEvent.click(submit());
    expect(
      await screen.findByText('メールアドレスまたはパスワードが正しくありません。'),
    ).toBeInTheDocument();
    expect(onSignedIn).not.toHaveBeenCalled();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('its links move through the navigator (a page load until the router registers)', async () => {
    mockApi({});
    const moves: string[] = [];
    setNavigator((to) => moves.push(to));
    try {
      renderEntry();
      await userEvent.click(screen.getByRole('link', { name: 'パスワードをお忘れの方はこちら' }));
      await userEvent.click(screen.getByRole('link', { name: '新規登録はこちら' }));
      expect(moves).toEqual(['/forgot-password', '/register-information']);
      expect(screen.getByRole('link', { name: '新規登録はこちら' })).toHaveAttribute(
        'href',
        '/register-information',
      );
    } finally {
      setNavigator((to, opts) =>
        opts?.replace ? window.location.replace(to) : window.location.assign(to),
      );
    }
  });
});
