import zlib from 'node:zlib';
import type { Page } from '@playwright/test';
import { expect, gotoSettled, login, test } from './support';

// Issue 11 item 4 on the built product (ADR 0046): the shop keeps its catalogue on /products.
// The data folder outlives a run, so each run names its products and categories afresh.

/** A real PNG of w×h (one colour), made here: the server measures photos from their bytes. */
function pngOf(w: number, h: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = (crcTable[(c ^ x) & 0xff] ?? 0) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(w * 3, 0)]);
  for (let x = 0; x < w; x++) row.set([0x7a, 0xa8, 0x4c], 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: h }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const dialogOf = (page: Page, name: string) => page.getByRole('dialog', { name });

async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('dialog').getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('the shop adds two products in two categories, sees the tabs and the prices, edits one and deletes one', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const run = Date.now().toString(36).slice(-5);
  const drinks = `ドリンク${run}`;
  const food = `フード${run}`;
  const latte = `抹茶ラテ${run}`;
  const parfait = `抹茶パフェ${run}`;

  await login(page, 'shop@tenpo.example');
  await expect(page).toHaveURL(/\/(overview|dashboard)/);
  await gotoSettled(page, '/products');
  await expect(page.getByRole('heading', { name: '商品' })).toBeVisible();

  // 1. A drink with a price range and a photo, in a new category.
  await page.getByRole('button', { name: '商品を追加' }).click();
  let d = dialogOf(page, '商品を追加');
  await d.getByRole('textbox', { name: /商品名/ }).fill(latte);
  await choose(page, 'カテゴリー', '新しいカテゴリー');
  await d.getByRole('textbox', { name: /新しいカテゴリー名/ }).fill(drinks);
  // The rule of spec 2 §5 holds on the real screen too: nothing is sent without a price's ends.
  await d.getByRole('switch', { name: '価格帯で指定する' }).check({ force: true });
  await d.getByRole('button', { name: '保存' }).click();
  await expect(d.getByText('最低価格 を入力してください。')).toBeVisible();
  await d.getByRole('textbox', { name: /最低価格/ }).fill('1200');
  await d.getByRole('textbox', { name: /最高価格/ }).fill('3000');
  await choose(page, 'ボタン', 'オンライン注文');
  await d.getByRole('textbox', { name: /ボタンのリンク/ }).fill('https://cafe.example/latte');
  await d.locator('input[type=file]').setInputFiles({
    name: 'latte.png',
    mimeType: 'image/png',
    buffer: pngOf(320, 240),
  });
  await page.screenshot({ path: test.info().outputPath('add-modal.png'), fullPage: true });
  await d.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('商品を追加しました。')).toBeVisible();
  await expect(d).toBeHidden();

  // 2. A dessert with one price, in a second new category.
  await page.getByRole('button', { name: '商品を追加' }).click();
  d = dialogOf(page, '商品を追加');
  await d.getByRole('textbox', { name: /商品名/ }).fill(parfait);
  await choose(page, 'カテゴリー', '新しいカテゴリー');
  await d.getByRole('textbox', { name: /新しいカテゴリー名/ }).fill(food);
  await d.getByRole('textbox', { name: '価格' }).fill('800');
  await d.getByRole('button', { name: '保存' }).click();
  await expect(d).toBeHidden();

  // The tabs and the cards with the prices in yen.
  await expect(page.getByRole('tab', { name: 'すべて' })).toBeVisible();
  await expect(page.getByRole('tab', { name: drinks })).toBeVisible();
  await expect(page.getByRole('tab', { name: food })).toBeVisible();
  const latteCard = page.getByRole('article', { name: latte });
  const parfaitCard = page.getByRole('article', { name: parfait });
  await expect(latteCard).toContainText('¥1,200〜¥3,000');
  await expect(parfaitCard).toContainText('¥800');
  // The photo is served from the app's storage, as stored.
  const src = await latteCard.getByRole('img').getAttribute('src');
  const img = await page.request.get(src ?? '');
  expect(img.status()).toBe(200);
  expect(img.headers()['content-type']).toBe('image/png');
  await page.screenshot({ path: test.info().outputPath('products.png'), fullPage: true });

  await page.getByRole('tab', { name: food }).click();
  await expect(parfaitCard).toBeVisible();
  await expect(latteCard).toBeHidden();
  await page.getByRole('tab', { name: 'すべて' }).click();
  await expect(latteCard).toBeVisible();

  // 3. Edit the dessert: a new name and a price range.
  await parfaitCard.getByRole('button', { name: '編集' }).click();
  d = dialogOf(page, '商品を編集');
  await expect(d.getByRole('textbox', { name: /商品名/ })).toHaveValue(parfait);
  await d.getByRole('textbox', { name: /商品名/ }).fill(`${parfait}（大）`);
  await d.getByRole('switch', { name: '価格帯で指定する' }).check({ force: true });
  await d.getByRole('textbox', { name: /最低価格/ }).fill('950');
  await d.getByRole('textbox', { name: /最高価格/ }).fill('1100');
  await d.getByRole('button', { name: '保存' }).click();
  await expect(page.getByText('商品を更新しました。')).toBeVisible();
  const edited = page.getByRole('article', { name: `${parfait}（大）` });
  await expect(edited).toContainText('¥950〜¥1,100');
  await expect(edited).toContainText(food);

  // 4. Delete the drink, after the confirm: its card and its (now empty) tab go.
  await latteCard.getByRole('button', { name: '削除' }).click();
  const confirm = dialogOf(page, '商品を削除しますか？');
  await expect(confirm).toContainText(`「${latte}」を削除します。`);
  await confirm.getByRole('button', { name: '削除' }).click();
  await expect(page.getByText('商品を削除しました。')).toBeVisible();
  await expect(latteCard).toBeHidden();
  await expect(page.getByRole('tab', { name: drinks })).toBeHidden();
  expect((await page.request.get(src ?? '')).status()).toBe(404);

  // After a reload, the server's catalogue says the same.
  await gotoSettled(page, '/products');
  await expect(page.getByRole('article', { name: `${parfait}（大）` })).toContainText(
    '¥950〜¥1,100',
  );
  await expect(page.getByRole('article', { name: latte })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('after.png'), fullPage: true });
});
