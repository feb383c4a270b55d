import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, ok, renderAt, resetState } from '../../test/render';

const field = (re: RegExp) => screen.getByLabelText(re);
const next = () => screen.getByRole('button', { name: '確認画面へ' });

describe('/register-information', () => {
  beforeEach(resetState);

  it('shows every required message and the terms rule (spec 1 §5)', async () => {
    mockApi({});
    renderAt('/register-information');
    await userEvent.click(await screen.findByRole('button', { name: '確認画面へ' }));
    expect(await screen.findByText('氏名 を入力してください。')).toBeInTheDocument();
    expect(screen.getByText('会社名 を入力してください。')).toBeInTheDocument();
    expect(screen.getByText('店舗名 を入力してください。')).toBeInTheDocument();
    expect(screen.getByText('メールアドレス を入力してください。')).toBeInTheDocument();
    expect(screen.getByText('利用規約に同意してください。')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('checks email format, digits-only phone and the space in the full name', async () => {
    mockApi({});
    renderAt('/register-information');
    await userEvent.type(await screen.findByLabelText(/^氏名/), '山田太郎');
    await userEvent.type(field(/^メールアドレス/), 'yamada@');
    await userEvent.type(field(/^電話番号/), '03-1234-5678');
    await userEvent.click(next());
    expect(
      await screen.findByText('氏名は姓と名の間にスペースを入れてください。'),
    ).toBeInTheDocument();
    expect(screen.getByText('メールアドレスが正しくありません。')).toBeInTheDocument();
    expect(screen.getByText('数字のみを入力してください')).toBeInTheDocument();
  });

  it('asks before typed answers are left for /login or lost to a reload (issue 23 item 3)', async () => {
    mockApi({});
    const { router } = renderAt('/register-information');
    await userEvent.type(await screen.findByLabelText(/^氏名/), '山田 太郎');
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);
    await router.navigate('/login');
    await waitFor(() => expect(confirm).toHaveBeenCalled());
    expect(router.state.location.pathname).toBe('/register-information');
    expect(field(/^氏名/)).toHaveValue('山田 太郎');
    confirm.mockRestore();
  });

  it('confirms in a modal, sends, and the success dialog leads back to /login', async () => {
    const { calls } = mockApi({ 'POST /registration-form': ok(null, '受け付けました。') });
    const { router } = renderAt('/register-information');
    await userEvent.type(await screen.findByLabelText(/^氏名/), '山田 太郎');
    await userEvent.type(field(/^会社名/), '山田商店');
    await userEvent.type(field(/^店舗名/), '山田商店 本店');
    await userEvent.type(field(/^メールアドレス/), 'yamada@example.jp');
    await userEvent.type(field(/^電話番号/), '0312345678');
    await userEvent.click(screen.getByRole('checkbox', { name: '利用規約に同意する' }));
    await userEvent.click(next());
    const confirm = await screen.findByRole('dialog', { name: '入力内容の確認' });
    expect(within(confirm).getByText('山田商店 本店')).toBeInTheDocument();
    expect(within(confirm).getByText('0000')).toBeInTheDocument();
    await userEvent.click(within(confirm).getByRole('button', { name: '送信' }));
    const done = await screen.findByRole('dialog', { name: '送信完了' });
    expect(within(done).getByText('受け付けました。')).toBeInTheDocument();
    expect(calls[0]?.body).toEqual({
      full_name: '山田 太郎',
      company_name: '山田商店',
      store_name: '山田商店 本店',
      email: 'yamada@example.jp',
      phone: '0312345678',
      knowledge: null,
      agent_code: '0000',
      client_company_name: null,
      agency_name: null,
      register_type: 0,
      agreed_terms: true,
    });
    await userEvent.click(within(done).getByRole('button', { name: 'ログイン画面へ' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});
