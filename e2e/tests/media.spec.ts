import sharp from 'sharp';
import { GOOGLE, googleMedia } from './providers';
import { expect, gotoSettled, login, test } from './support';

/**
 * A photo Google takes (JPEG, over 10 KB, over 250×250). The noise is random, so each call makes
 * different bytes: what Google serves back tells the three apart.
 */
const photoOf = (background: string) =>
  sharp({
    create: {
      width: 900,
      height: 700,
      channels: 3,
      background,
      noise: { type: 'gaussian', mean: 128, sigma: 30 },
    },
  })
    .jpeg({ quality: 80 })
    .toBuffer();

test('the shop uploads three photos on /media: in the gallery and in Google’s media of its location; then deletes one', async ({
  page,
  request,
}) => {
  const photos = await Promise.all(['#c05030', '#3070c0', '#40a060'].map(photoOf));
  // What Google holds, by the bytes its image host serves for each item.
  const bytesAtGoogle = async () => {
    const out: Buffer[] = [];
    for (const m of await googleMedia(request, GOOGLE.shop)) {
      const r = await request.get(m.googleUrl);
      expect(r.status()).toBe(200);
      out.push(Buffer.from(await r.body()));
    }
    return out;
  };
  const held = (all: Buffer[]) => photos.filter((p) => all.some((b) => b.equals(p))).length;

  await login(page, 'shop@tenpo.example');
  await expect(page).toHaveURL(/\/dashboard$/);
  await gotoSettled(page, '/media');
  await expect(page.getByRole('heading', { name: '写真・動画' })).toBeVisible();
  const gallery = page.getByTestId('photo');
  // The library has loaded (empty, or with what earlier runs left) before it is counted.
  await expect(page.getByText('写真・動画はまだありません。').or(gallery.first())).toBeVisible();
  const before = await gallery.count();
  const googleBefore = (await googleMedia(request, GOOGLE.shop)).length;

  await page.getByRole('button', { name: 'アップロード', exact: true }).click();
  const modal = page.getByRole('dialog', { name: '写真・動画をアップロード' });
  await modal
    .locator('input[type="file"]')
    .setInputFiles(
      photos.map((buffer, i) => ({ name: `shop-${i + 1}.jpg`, mimeType: 'image/jpeg', buffer })),
    );
  await expect(modal.getByText('3 / 10 件')).toBeVisible();
  await modal.getByRole('button', { name: 'アップロードする' }).click();
  await expect(page.getByText('写真をアップロードしました。')).toBeVisible();
  await expect(modal).toBeHidden();
  await expect(gallery).toHaveCount(before + 3);
  // None of them is marked as missing at Google.
  await expect(page.getByText('Google未反映')).toHaveCount(0);

  // Google's side: exactly three more items, and they are our three photos, once each.
  expect(await googleMedia(request, GOOGLE.shop)).toHaveLength(googleBefore + 3);
  expect(held(await bytesAtGoogle())).toBe(3);

  // The viewer opens at the clicked photo and moves with the keys.
  await page.getByRole('button', { name: '2 枚目を表示', exact: true }).click();
  const viewer = page.getByRole('dialog', { name: '写真ビューア' });
  await expect(viewer.getByText(`2 / ${before + 3}`)).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(viewer.getByText(`3 / ${before + 3}`)).toBeVisible();
  await viewer.getByRole('button', { name: '閉じる' }).click();
  await expect(viewer).toBeHidden();

  // Delete the newest: asked first, then "Deleted!"; gone here and at Google.
  await page.getByRole('button', { name: '1 枚目を削除', exact: true }).click();
  await page
    .getByRole('dialog', { name: 'この写真を削除しますか？' })
    .getByRole('button', { name: '削除する' })
    .click();
  const done = page.getByRole('dialog', { name: 'Deleted!' });
  await expect(done.getByText('写真が削除されました。')).toBeVisible();
  await done.getByRole('button', { name: 'OK' }).click();
  await expect(gallery).toHaveCount(before + 2);
  expect(await googleMedia(request, GOOGLE.shop)).toHaveLength(googleBefore + 2);
  expect(held(await bytesAtGoogle())).toBe(2);
});
