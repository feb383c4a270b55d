import { expect, test } from '@playwright/test';

test('the login page shows the login form', async ({ page }) => {
  await page.goto('/login');
  const form = page.getByRole('form', { name: 'ログイン' });
  await expect(form).toBeVisible();
  await expect(form.getByRole('textbox', { name: 'メールアドレス' })).toBeVisible();
  await expect(form.getByRole('textbox', { name: 'パスワード', exact: true })).toBeVisible();
  await expect(form.getByRole('button', { name: 'ログイン' })).toBeEnabled();
});
