import { arrowTo, closeWithX, expectTrapped, tabTo } from './keyboard';
import { expect, login, test } from './support';

// Issue 7 §3.4: every modal, with the keyboard only. Focus moves into the modal when it opens,
// Tab and Shift+Tab stay inside it, Escape or × closes it, and focus goes back to the control
// that opened it.
//
// The terms dialog after a first login is walked the same way in channels.spec.ts: only newshop
// has not agreed yet, and that file's serial journey agrees for it, so the check has to come
// first there rather than race it from here.

test.describe('modals with the keyboard only', () => {
  test('account menu: change password and change information', async ({ page }) => {
    await login(page, 'shop@tenpo.example');
    await expect(page).toHaveURL(/\/dashboard$/);
    const menu = page.getByRole('button', { name: 'アカウントメニュー' });

    await tabTo(page, menu);
    await page.keyboard.press('Enter');
    await arrowTo(page, 'パスワード変更');
    await page.keyboard.press('Enter');
    const password = page.getByRole('dialog', { name: 'パスワード変更' });
    await expect(password.getByLabel('現在のパスワード')).toBeFocused();
    await page.screenshot({ path: test.info().outputPath('change-password.png') });
    await expectTrapped(page, password);
    // The show-password toggle is on the way, with its Japanese name.
    await tabTo(page, password.getByRole('button', { name: 'パスワードを表示' }).first(), 10);
    await page.keyboard.press('Escape');
    await expect(password).toBeHidden();
    await expect(menu).toBeFocused();

    await page.keyboard.press('Enter');
    await arrowTo(page, '登録情報の変更');
    await page.keyboard.press('Enter');
    const information = page.getByRole('dialog', { name: '登録情報の変更' });
    await expect(information.getByLabel(/^担当者名/)).toBeVisible();
    await expectTrapped(page, information);
    await closeWithX(page, information);
    await expect(menu).toBeFocused();
  });

  test('registration: the terms to read and the confirmation', async ({ page }) => {
    await page.goto('/register-information');
    const read = page.getByRole('button', { name: '利用規約を読む' });
    await tabTo(page, read);
    await page.keyboard.press('Enter');
    const terms = page.getByRole('dialog', { name: '利用規約' });
    await expectTrapped(page, terms);
    await page.keyboard.press('Escape');
    await expect(terms).toBeHidden();
    await expect(read).toBeFocused();

    // Typing the form is not the point here; sending it for confirmation is.
    await page.getByRole('textbox', { name: '氏名' }).fill('試験 花子');
    await page.getByRole('textbox', { name: '会社名', exact: true }).fill('株式会社キーボード');
    await page.getByRole('textbox', { name: '店舗名' }).fill('キーボード食堂');
    await page.getByRole('textbox', { name: 'メールアドレス' }).fill('keyboard@example.jp');
    await page.getByRole('checkbox', { name: '利用規約に同意する' }).check();
    const next = page.getByRole('button', { name: '確認画面へ' });
    await tabTo(page, next);
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: '入力内容の確認' });
    await expectTrapped(page, confirm);
    await closeWithX(page, confirm);
    await expect(next).toBeFocused();
  });

  test('connections: the disconnect question', async ({ page }) => {
    await login(page, 'shop@tenpo.example');
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/connect-account');
    const disconnect = page.getByRole('button', { name: /連携解除/ }).first();
    await tabTo(page, disconnect);
    await page.keyboard.press('Enter');
    const ask = page.getByRole('dialog', { name: '連携の解除' });
    await expectTrapped(page, ask);
    // Nothing is disconnected: Escape is "no".
    await page.keyboard.press('Escape');
    await expect(ask).toBeHidden();
    await expect(disconnect).toBeFocused();
  });

  test('agency: the store selector and the logo upload', async ({ page }) => {
    await login(page, 'agency@tenpo.example');
    await expect(page).toHaveURL(/\/overview$/);
    const open = page.getByRole('button', { name: /ダッシュボード/ }).first();
    await tabTo(page, open);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/dashboard$/);

    const selector = page.getByRole('button', { name: '店舗を選択' });
    await tabTo(page, selector);
    await page.keyboard.press('Enter');
    const stores = page.getByRole('dialog', { name: '店舗を選択' });
    await expect(stores.getByRole('button', { name: '次のページ' })).toBeVisible();
    await expectTrapped(page, stores);
    await page.keyboard.press('Escape');
    await expect(stores).toBeHidden();
    await expect(selector).toBeFocused();

    const logo = page.getByRole('button', { name: 'ロゴを変更' });
    await tabTo(page, logo);
    await page.keyboard.press('Enter');
    const upload = page.getByRole('dialog', { name: 'ロゴのアップロード' });
    await expectTrapped(page, upload);
    await closeWithX(page, upload);
    await expect(logo).toBeFocused();
  });

  test('side bar groups open and close from the keyboard', async ({ page }) => {
    await login(page, 'shop@tenpo.example');
    const nav = page.getByRole('navigation', { name: 'メインメニュー' });
    const group = nav.getByRole('button', { name: '店舗情報' });
    await tabTo(page, group);
    await expect(group).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Enter');
    await expect(group).toHaveAttribute('aria-expanded', 'false');
    await expect(nav.getByRole('link', { name: '基本情報' })).toBeHidden();
    await page.keyboard.press('Space');
    await expect(group).toHaveAttribute('aria-expanded', 'true');
    await expect(nav.getByRole('link', { name: '基本情報' })).toBeVisible();
  });
});
