import { expect, gotoSettled, login, removeGroupsNamed, test } from './support';

/**
 * Issue 12: the manager's /overview/agencies/{id} is the agency store overview of spec 3 §2
 * for that agency: opened from the agencies tab, its group selector lists the agency's groups
 * (the seed's さぬき屋 関西エリア among them) and shows a group's stores; the manager makes a
 * group of that agency's stores in the same modal the agency uses.
 */
const KANSAI = 'さぬき屋 関西エリア';
const KANSAI_STORES = [
  'うどん処 さぬき屋 梅田店',
  'うどん処 さぬき屋 難波店',
  'うどん処 さぬき屋 三宮店',
];
const PREFIX = 'E2E 運営作成';
/** Two demo stores outside groups.spec's group (a store may be in several groups); no leader. */
const NEW_STORES = ['カフェ・ミナト 品川店', '花屋 フルール 吉祥寺'];

test('the manager opens the demo agency, picks a group, sees its stores, and makes a group', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  // Retry-safe on a reused data folder: the groups an earlier run made go first.
  await removeGroupsNamed(page, request, PREFIX);
  const name = `${PREFIX} ${Date.now()}`;

  await login(page, 'manager@tenpo.example');
  await expect(page).not.toHaveURL(/\/login$/);
  await gotoSettled(page, '/overview');
  await page.getByRole('tab', { name: '代理店' }).click();
  await page.getByRole('button', { name: '株式会社デモエージェンシー 店舗一覧' }).click();
  await expect(page).toHaveURL(/\/overview\/agencies\/\d+$/);
  await expect(
    page.getByRole('heading', { name: '代理店「株式会社デモエージェンシー」の店舗一覧' }),
  ).toBeVisible();
  await expect(page.getByText(/12 件中 1 〜 5 件を表示/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'グループを更新' })).toBeDisabled();

  // The selector lists this agency's groups; choosing one shows exactly its stores.
  await page.getByRole('combobox', { name: 'グループ' }).click();
  await page.getByRole('option', { name: KANSAI }).click();
  await expect(page.getByText('3 件中 1 〜 3 件を表示')).toBeVisible();
  const rows = page.locator('[data-testid^="store-row-"]');
  await expect(rows).toHaveCount(3);
  for (const store of KANSAI_STORES) await expect(rows).toContainText([store]);
  await expect(page.getByRole('button', { name: 'グループを更新' })).toBeEnabled();
  await page.screenshot({ path: 'test-results/manager-groups-selected.png', fullPage: true });

  // The manager makes a group of two of the agency's stores.
  await page.getByRole('button', { name: 'グループを作成' }).click();
  const modal = page.getByRole('dialog', { name: 'グループを作成' });
  await expect(modal).toBeVisible();
  await modal.getByRole('textbox', { name: 'グループ名' }).fill(name);
  const add = modal.getByRole('button', { name: '追加', exact: true });
  for (const store of NEW_STORES) {
    const picker = modal.getByRole('combobox', { name: '店舗を追加' });
    await picker.click();
    await picker.fill(store.split(' ').at(-1) ?? store);
    await page.getByRole('option', { name: new RegExp(store) }).click();
    await add.click();
    await expect(modal.getByRole('cell', { name: store, exact: true })).toBeVisible();
  }
  // The picker offers this agency's stores only: a customer of the platform is not found.
  const picker = modal.getByRole('combobox', { name: '店舗を追加' });
  await picker.click();
  await picker.fill('shop@tenpo.example');
  await expect(page.getByText('該当する店舗はありません。')).toBeVisible();
  await picker.fill('');
  await modal.getByRole('textbox', { name: 'グループ名' }).click();
  await expect(page.getByText('該当する店舗はありません。')).toBeHidden();
  await page.screenshot({ path: 'test-results/manager-groups-modal.png' });
  await modal.getByRole('button', { name: '確定' }).click();
  await expect(page.getByText('グループを作成しました')).toBeVisible();
  await expect(modal).toBeHidden();

  await page.getByRole('combobox', { name: 'グループ' }).click();
  await page.getByRole('option', { name }).click();
  await expect(page.getByText('2 件中 1 〜 2 件を表示')).toBeVisible();
  for (const store of NEW_STORES) await expect(rows).toContainText([store]);
  await page.screenshot({ path: 'test-results/manager-groups-new.png', fullPage: true });
});
