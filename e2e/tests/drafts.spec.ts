import { emailBox, expect, gotoSettled, login, passwordBox, settled, test } from './support';

// Issue 23 item 3: a post being typed survives a reload and a session that ends meanwhile.
test('a 400-character post survives a reload and a new sign-in after the session ended', async ({
  page,
}) => {
  // The form asks before a reload while it holds typed work: the journey says yes.
  page.on('dialog', (d) => void d.accept());
  const text = '本日のおすすめ。'.repeat(50); // 400 characters
  await login(page, 'shop@tenpo.example');
  await expect(page).toHaveURL(/\/dashboard$/);
  await gotoSettled(page, '/create-post');
  const content = page.getByRole('textbox', { name: /投稿内容/ });
  await content.fill(text);
  // The draft is written after a pause in typing: wait until local storage holds the text.
  await expect
    .poll(() =>
      page.evaluate((typed) => {
        for (let i = 0; i < localStorage.length; i += 1) {
          const key = localStorage.key(i) ?? '';
          if (key.startsWith('tenpo.postDraft:') && localStorage.getItem(key)?.includes(typed))
            return true;
        }
        return false;
      }, text),
    )
    .toBe(true);

  await settled(page);
  await page.reload();
  await expect(content).toHaveValue(text);
  await expect(page.getByText('保存されていた下書きを復元しました。')).toBeVisible();

  // The session ends: the token is gone; the next load goes to /login.
  await settled(page);
  await page.evaluate(() => localStorage.removeItem('token'));
  await page.reload();
  await expect(page).toHaveURL(/\/login$/);
  await emailBox(page).fill('shop@tenpo.example');
  await passwordBox(page).fill('tenpo-demo-1');
  await page.getByRole('button', { name: 'ログイン' }).click();
  await expect(page).toHaveURL(/\/create-post$/);
  await expect(content).toHaveValue(text);
  await expect(page.getByRole('button', { name: '下書きを破棄' })).toBeVisible();

  await settled(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: test.info().outputPath('drafts-1280.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(content).toHaveValue(text);
  await page.screenshot({ path: test.info().outputPath('drafts-390.png'), fullPage: true });

  // Discarding empties the form and forgets the draft.
  await page.getByRole('button', { name: '下書きを破棄' }).click();
  await expect(content).toHaveValue('');
});
