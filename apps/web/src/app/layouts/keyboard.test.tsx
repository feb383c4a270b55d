import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { StoreRow, User } from '@tenpo/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import { demoUser, loginData, mockApi, ok, renderAt, resetState, signIn } from '../../test/render';

// Issue 7 §3.4: modals take focus and give it back, icon buttons and side-bar groups have
// Japanese names and states.

const accountMenu = () => screen.getByRole('button', { name: 'アカウントメニュー' });

/** Opens a modal from the account menu with the keyboard only, as a keyboard user would. */
async function openFromAccountMenu(item: string) {
  accountMenu().focus();
  await userEvent.keyboard('{Enter}');
  const entry = await screen.findByRole('menuitem', { name: item });
  await waitFor(() => expect(entry).toBeVisible());
  entry.focus();
  await userEvent.keyboard('{Enter}');
  return screen.findByRole('dialog', { name: item });
}

describe('modals opened from the account menu', () => {
  beforeEach(resetState);

  it('change password: focus moves in, Tab stays in, Escape closes and focus returns', async () => {
    mockApi({ 'GET /refresh-token': ok(loginData()) });
    signIn();
    renderAt('/dashboard');
    await screen.findByRole('navigation', { name: 'メインメニュー' });
    const dialog = await openFromAccountMenu('パスワード変更');
    const current = within(dialog).getByLabelText(/^現在のパスワード/);
    await waitFor(() => expect(current).toHaveFocus(), { timeout: 3000 });
    // A full round of Tab and Shift+Tab never leaves the dialog.
    for (let i = 0; i < 12; i++) {
      await userEvent.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
    for (let i = 0; i < 12; i++) {
      await userEvent.tab({ shift: true });
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(accountMenu()).toHaveFocus());
  });

  it('change information: focus moves in; × is named 閉じる and returns focus', async () => {
    mockApi({
      'GET /refresh-token': ok(loginData()),
      'GET /account-setting/information': ok(demoUser()),
    });
    signIn();
    renderAt('/dashboard');
    await screen.findByRole('navigation', { name: 'メインメニュー' });
    const dialog = await openFromAccountMenu('登録情報の変更');
    await within(dialog).findByLabelText(/^担当者名/);
    // The form is still loading when the dialog opens: focus goes to the dialog's first control.
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement), {
      timeout: 3000,
    });
    await userEvent.click(within(dialog).getByRole('button', { name: '閉じる' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(accountMenu()).toHaveFocus());
  });
});

describe('side bar groups', () => {
  beforeEach(resetState);

  it('are buttons that say whether they are open, and open and close by keyboard', async () => {
    mockApi({ 'GET /refresh-token': ok(loginData()) });
    signIn();
    renderAt('/dashboard');
    const nav = await screen.findByRole('navigation', { name: 'メインメニュー' });
    const group = within(nav).getByRole('button', { name: '店舗情報' });
    expect(group).toHaveAttribute('aria-expanded', 'true');
    expect(within(nav).getByRole('button', { name: '投稿管理' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    group.focus();
    await userEvent.keyboard('{Enter}');
    expect(group).toHaveAttribute('aria-expanded', 'false');
    await waitFor(() =>
      expect(within(nav).queryByRole('link', { name: '基本情報' })).not.toBeInTheDocument(),
    );
    await userEvent.keyboard(' ');
    expect(group).toHaveAttribute('aria-expanded', 'true');
    expect(within(nav).getByRole('link', { name: '基本情報' })).toBeVisible();
  });
});

describe('paging buttons', () => {
  beforeEach(resetState);

  it('have Japanese names', async () => {
    const agency: Partial<User> = { id: 6, role: 11, email: 'agency@tenpo.example' };
    const row = (id: number): StoreRow => ({
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
      google_status: 1,
      payment_fail: false,
    });
    const { calls } = mockApi({
      'GET /refresh-token': ok(loginData(agency, false)),
      'GET /agency/groups': ok([]),
      'GET /agency/stores': (req) => {
        const p = Number(req.url.searchParams.get('page') ?? 1);
        return ok({
          data: [row(p * 10)],
          current_page: p,
          last_page: 2,
          total: 10,
          per_page: 5,
          from: p * 5 - 4,
          to: p * 5,
        });
      },
    });
    signIn(agency, false);
    renderAt('/overview');
    await screen.findByTestId('store-row-10');
    expect(screen.getByRole('button', { name: '前のページ' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: '次のページ' }));
    await screen.findByTestId('store-row-20');
    expect(calls.at(-1)?.url.searchParams.get('page')).toBe('2');
  });
});
