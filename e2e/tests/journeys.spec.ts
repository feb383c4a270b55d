import {
  DEMO_PASSWORD,
  emailBox,
  expect,
  linkFromMail,
  login,
  passwordBox,
  settled,
  test,
} from './support';

test('registration to the end through the sandbox mailbox', async ({ page, request }) => {
  const email = `e2e-${Date.now()}@example.jp`;
  await page.goto('/login');
  await page.getByRole('link', { name: '新規登録はこちら' }).click();
  await expect(page).toHaveURL(/\/register-information$/);
  await expect(page.getByRole('form', { name: '新規登録' })).toBeVisible();

  // The form refuses to go on empty.
  await page.getByRole('button', { name: '確認画面へ' }).click();
  await expect(page.getByText('氏名 を入力してください。')).toBeVisible();

  await page.getByRole('textbox', { name: '氏名' }).fill('試験 太郎');
  await page.getByRole('textbox', { name: '会社名', exact: true }).fill('株式会社テスト');
  await page.getByRole('textbox', { name: '店舗名' }).fill('テスト食堂 本店');
  await emailBox(page).fill(email);
  await page.getByRole('textbox', { name: '電話番号' }).fill('0312345678');
  await page.getByRole('checkbox', { name: '利用規約に同意する' }).check();
  await page.getByRole('button', { name: '確認画面へ' }).click();
  const confirm = page.getByRole('dialog', { name: '入力内容の確認' });
  await expect(confirm).toContainText('テスト食堂 本店');
  await confirm.getByRole('button', { name: '送信' }).click();
  const done = page.getByRole('dialog', { name: '送信完了' });
  await expect(done).toBeVisible();
  await done.getByRole('button', { name: 'ログイン画面へ' }).click();
  await expect(page).toHaveURL(/\/login$/);

  const link = await linkFromMail(request, email, '/register-account');
  await page.goto(link);
  await expect(emailBox(page)).toHaveValue(email);
  await expect(emailBox(page)).not.toBeEditable();
  await passwordBox(page).fill('new-password-1');
  await page.getByRole('textbox', { name: 'パスワード（確認）' }).fill('new-password-1');
  await page.getByRole('button', { name: '登録する' }).click();
  await expect(page).toHaveURL(/\/login$/);

  // The terms were agreed on the form: the dialog does not ask again (issue 7 §3.9).
  await login(page, email, 'new-password-1');
  await expect(page).toHaveURL(/\/google-my-business$/);
  await expect(page.getByRole('dialog', { name: '利用規約' })).toHaveCount(0);
});

test('a used or wrong registration link counts down back to the form', async ({ page }) => {
  await page.goto('/register-account?token=not-a-real-token');
  await expect(page.getByText('アクセストークンの有効期限が切れました。')).toBeVisible();
  await expect(page.getByText(/秒後に新規登録画面へ移動します/)).toBeVisible();
  await page.getByRole('button', { name: '今すぐ新規登録画面へ' }).click();
  await expect(page).toHaveURL(/\/register-information$/);
});

test('forgot and reset password through the mailbox', async ({ page, request }) => {
  const email = 'store06@tenpo.example';
  await page.goto('/login');
  await page.getByRole('link', { name: 'パスワードをお忘れの方はこちら' }).click();
  await expect(page.getByRole('form', { name: 'パスワードをお忘れの方' })).toBeVisible();
  await emailBox(page).fill(email);
  await page.getByRole('button', { name: '再設定メールを送信' }).click();
  await expect(page.getByRole('status')).toBeVisible();

  const link = await linkFromMail(request, email, '/reset-password');
  await page.goto(link);
  await expect(page.getByRole('form', { name: 'パスワード再設定' })).toBeVisible();
  await passwordBox(page).fill('short');
  await page.getByRole('button', { name: 'パスワードを再設定' }).click();
  await expect(page.getByText('パスワードは8文字以上で入力してください。')).toBeVisible();
  await passwordBox(page).fill('reset-password-1');
  await page.getByRole('textbox', { name: 'パスワード（確認）' }).fill('reset-password-1');
  await page.getByRole('button', { name: 'パスワードを再設定' }).click();
  await expect(page).toHaveURL(/\/login$/);

  // The old password no longer works; the new one does.
  await login(page, email, DEMO_PASSWORD);
  await expect(page.getByRole('alert')).toContainText(
    'メールアドレスまたはパスワードが正しくありません。',
  );
  await login(page, email, 'reset-password-1');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('the store selector’s navigation rules (agency)', async ({ page }) => {
  await login(page, 'agency@tenpo.example');
  await expect(page).toHaveURL(/\/overview$/);

  // A row's dashboard button opens that store.
  await page.getByRole('button', { name: 'カフェ・ミナト 新宿店 ダッシュボード' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const selector = page.getByRole('button', { name: '店舗を選択' });
  await expect(selector).toHaveText('カフェ・ミナト 新宿店');
  expect(await page.evaluate(() => localStorage.getItem('userIds'))).toBe('9');

  // From Manual Document, one store → dashboard.
  await page.goto('/manual-document');
  // The 34-page PDF is fetched before it is shown.
  await expect(page.locator('iframe[title="マニュアル"]')).toBeVisible({ timeout: 20_000 });
  // Once the route change's calls have answered: a dialog opened while they land can close
  // again as the layout takes their answer (seen under load; noted on issue 24).
  await settled(page);
  await selector.click();
  let dialog = page.getByRole('dialog', { name: '店舗を選択' });
  await dialog.getByRole('radio', { name: 'カフェ・ミナト 池袋店' }).check();
  await dialog.getByRole('button', { name: '選択' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(selector).toHaveText('カフェ・ミナト 池袋店');

  // From Report, two stores → report-multiple, and the side bar shrinks.
  await page
    .getByRole('navigation', { name: 'メインメニュー' })
    .getByRole('link', { name: 'レポート' })
    .click();
  await expect(page).toHaveURL(/\/report$/);
  await settled(page);
  await selector.click();
  dialog = page.getByRole('dialog', { name: '店舗を選択' });
  await dialog.getByRole('checkbox', { name: 'カフェ・ミナト 渋谷店' }).check();
  await dialog.getByRole('button', { name: '選択' }).click();
  await expect(page).toHaveURL(/\/report-multiple$/);
  const nav = page.getByRole('navigation', { name: 'メインメニュー' });
  await expect(nav.getByRole('link', { name: '投稿作成' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'ダッシュボード' })).toHaveCount(0);

  // From ReportMultiple, one store → report.
  await expect(selector).toHaveText('2 店舗を選択中');
  await settled(page);
  await selector.click();
  dialog = page.getByRole('dialog', { name: '店舗を選択' });
  await dialog.getByRole('checkbox', { name: 'カフェ・ミナト 渋谷店' }).uncheck();
  await dialog.getByRole('button', { name: '選択' }).click();
  await expect(page).toHaveURL(/\/report$/);

  // Switch account goes back to the overview.
  await page.getByRole('button', { name: 'アカウントメニュー' }).click();
  await page.getByRole('menuitem', { name: 'アカウント切り替え' }).click();
  await expect(page).toHaveURL(/\/overview$/);
});

test('a 401 logs out and goes to /login', async ({ page, request }) => {
  await login(page, 'trial@tenpo.example');
  await expect(page).toHaveURL(/\/dashboard$/);
  const apiKey = await page.locator('meta[name="tenpo-api-key"]').getAttribute('content');
  // The session is revoked behind the app's back (as by an expiry or a logout elsewhere). Each
  // route change rotates the token, and the landing's last rotation may answer after we read
  // it (a rotated token is refused, ADR 0012): read the stored token again until one is live.
  await expect
    .poll(
      async () => {
        await page.waitForLoadState('networkidle');
        const token = await page.evaluate(() => localStorage.getItem('token'));
        const r = await request.get('/api/logout', {
          headers: {
            Authorization: `Bearer ${token}`,
            'X-Api-Key': apiKey ?? '',
            Accept: 'application/json',
          },
        });
        return r.status();
      },
      { timeout: 15_000, intervals: [500] },
    )
    .toBe(200);
  // The next call meets the 401: the side-bar link's route change, or a call the dashboard makes
  // by itself (a refetch) if that comes first; either way the app logs out and goes to /login.
  const link = page
    .getByRole('navigation', { name: 'メインメニュー' })
    .getByRole('link', { name: 'レポート' });
  await link.click({ timeout: 5_000 }).catch(async (err: unknown) => {
    if (!/\/login$/.test(page.url())) throw err;
  });
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('logout from the account menu', async ({ page }) => {
  await login(page, 'shop@tenpo.example');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('button', { name: 'アカウントメニュー' }).click();
  await page.getByRole('menuitem', { name: 'ログアウト' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
});

test('an unknown path shows Page Not Found', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await page.getByRole('link', { name: 'メインページへ' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('the privacy policy is public', async ({ page }) => {
  await page.goto('/facebook-terms-and-privacy');
  await expect(page.getByRole('heading', { name: 'プライバシーポリシー' })).toBeVisible();
  await expect(page.getByRole('heading', { name: /13歳未満/ })).toBeVisible();
  await expect(page.getByText('2022年9月19日')).toBeVisible();
});
