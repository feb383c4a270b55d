import { expect, login, removeGroupsNamed, test } from './support';

/**
 * Issue 12: the agency makes a group of three of its stores with a leader on /overview, and
 * that leader then sees exactly those stores (spec 3 §2, §7; ADR 0048). The leader is the demo
 * store08 (a shop that leads nothing in the seed).
 */
const LEADER = 'store08@tenpo.example';
const STORES = [
  'ヘアサロン ルミエール 表参道',
  'ヘアサロン ルミエール 自由が丘',
  '整体院 ほぐし庵 横浜',
];
const PREFIX = 'E2E グループ';

test('the agency groups three stores under a leader, and the leader sees exactly them', async ({
  page,
  browser,
  request,
}) => {
  // Two logins and a modal on a shared two-core machine.
  test.setTimeout(150_000);
  // Retry-safe on a reused data folder: an earlier run's groups go first, so the leader leads
  // only the group this run makes.
  await removeGroupsNamed(page, request, PREFIX);
  const name = `${PREFIX} ${Date.now()}`;

  await login(page, 'agency@tenpo.example');
  await expect(page).toHaveURL(/\/overview$/);
  await expect(page.getByRole('button', { name: 'グループを更新' })).toBeDisabled();
  await page.getByRole('button', { name: 'グループを作成' }).click();
  const modal = page.getByRole('dialog', { name: 'グループを作成' });
  await expect(modal).toBeVisible();

  // An empty name is refused on the spot.
  await modal.getByRole('button', { name: '確定' }).click();
  await expect(modal.getByText('グループ名 を入力してください。')).toBeVisible();

  await modal.getByRole('textbox', { name: 'グループ名' }).fill(name);
  const add = modal.getByRole('button', { name: '追加', exact: true });
  await expect(add).toBeDisabled();
  for (const store of STORES) {
    const picker = modal.getByRole('combobox', { name: '店舗を追加' });
    await picker.click();
    await picker.fill(store.split(' ').at(-1) ?? store);
    await page.getByRole('option', { name: new RegExp(store) }).click();
    await add.click();
    await expect(modal.getByRole('cell', { name: store, exact: true })).toBeVisible();
  }
  await modal.getByRole('radio', { name: `${STORES[0]} をグループリーダーにする` }).check();
  await page.screenshot({ path: 'test-results/groups-modal.png' });
  await modal.getByRole('button', { name: '確定' }).click();
  await expect(page.getByText('グループを作成しました')).toBeVisible();
  await expect(modal).toBeHidden();

  // The new group is in the selector, and its stores are the three.
  await page.getByRole('combobox', { name: 'グループ' }).click();
  await page.getByRole('option', { name }).click();
  await expect(page.getByText('3 件中 1 〜 3 件を表示')).toBeVisible();
  await expect(page.getByRole('button', { name: 'グループを更新' })).toBeEnabled();
  await page.screenshot({ path: 'test-results/groups-overview.png' });

  // The change is in the agency's history, with who made it and the stores it holds.
  await page.getByRole('button', { name: 'アカウントメニュー' }).click();
  await page.getByRole('menuitem', { name: '変更履歴' }).click();
  await expect(page).toHaveURL(/\/audit-log$/);
  const history = page.getByRole('table', { name: '変更履歴' });
  const created = history.getByRole('row').filter({ hasText: `グループ「${name}」を作成` });
  await expect(created).toHaveCount(1);
  await expect(created).toContainText('agency@tenpo.example');

  // The leader, in a browser of its own.
  const context = await browser.newContext({
    baseURL: new URL(page.url()).origin,
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
  });
  const leader = await context.newPage();
  await login(leader, LEADER);
  await expect(leader).toHaveURL(/\/overview$/);
  await expect(leader.getByText('3 件中 1 〜 3 件を表示')).toBeVisible();
  const rows = leader.locator('[data-testid^="store-row-"]');
  await expect(rows).toHaveCount(3);
  // Ordered by id, as the leader's list is (spec 3 §7 order_by id,asc).
  await expect(rows).toContainText(STORES);
  await leader.getByRole('combobox', { name: 'グループ' }).click();
  await expect(leader.getByRole('option', { name })).toBeVisible();
  // The group selector's own list: すべての店舗 and the one group (the page's per-page
  // choice is a native select with options of its own).
  await expect(leader.getByRole('listbox').getByRole('option')).toHaveCount(2);
  await leader.screenshot({ path: 'test-results/groups-leader.png' });
  await leader.keyboard.press('Escape');

  // A store's dashboard: the top bar's selector offers the same three stores, nothing else.
  await leader.getByRole('button', { name: `${STORES[1]} ダッシュボード` }).click();
  await expect(leader).toHaveURL(/\/dashboard$/);
  await leader.getByRole('button', { name: '店舗を選択' }).click();
  const selector = leader.getByRole('dialog', { name: '店舗を選択' });
  await expect(selector.getByRole('radio')).toHaveCount(3);
  for (const store of STORES)
    await expect(selector.getByRole('radio', { name: store, exact: true })).toBeVisible();
  await context.close();
});
