import { expect, login, test } from './support';

/**
 * The audit log (issue 12, ADR 0047), as a shop uses it: it changes its registered information,
 * then finds that change, with the values before and after, on 変更履歴.
 */
test('a shop changes its registered information and finds the change with before → after in 変更履歴', async ({
  page,
}) => {
  await login(page, 'shop@tenpo.example');
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.getByRole('button', { name: 'アカウントメニュー' }).click();
  await page.getByRole('menuitem', { name: '登録情報の変更' }).click();
  const form = page.getByRole('form', { name: '登録情報の変更' });
  const name = form.getByRole('textbox', { name: '担当者名' });
  await expect(name).not.toHaveValue('');
  const before = await name.inputValue();
  const after = `監査 ${Date.now() % 100000}`;
  await name.fill(after);
  await form.getByRole('button', { name: '保存' }).click();
  await expect(form).toHaveCount(0);

  await page
    .getByRole('navigation', { name: 'メインメニュー' })
    .getByRole('link', { name: '変更履歴' })
    .click();
  await expect(page).toHaveURL(/\/audit-log$/);
  await expect(page.getByRole('heading', { name: '変更履歴' })).toBeVisible();
  const table = page.getByRole('table', { name: '変更履歴' });
  // Newest first: a retry on the same data folder finds its own change on top.
  const row = table.getByRole('row').filter({ hasText: 'アカウント情報を変更' }).first();
  await expect(row).toContainText('shop@tenpo.example');
  await expect(row).toContainText('アカウント・変更');
  await expect(row).toContainText(/\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}/);

  await row.getByRole('button', { name: /の変更の詳細/ }).click();
  const changes = page.getByRole('table', { name: '変更内容' });
  const line = changes.getByRole('row').filter({ hasText: '担当者名' });
  await expect(line).toContainText(before);
  await expect(line).toContainText(after);

  // The filter by what was changed keeps it; another kind leaves it out.
  await page.getByRole('combobox', { name: '対象' }).click();
  await page.getByRole('option', { name: '投稿' }).click();
  await expect(page.getByText('該当する変更履歴はありません。')).toBeVisible();
  await page.getByRole('combobox', { name: '対象' }).click();
  await page.getByRole('option', { name: 'アカウント' }).click();
  await expect(
    table.getByRole('row').filter({ hasText: 'アカウント情報を変更' }).first(),
  ).toBeVisible();
  await expect(changes).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('audit-log.png'), fullPage: true });
});
