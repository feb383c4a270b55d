import sharp from 'sharp';
import { ja, type Product, type ProductCategory } from '@tenpo/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, json, login, multipart, png, type TestApp } from './helpers';

/** Products (spec 2 §7, issue 11 item 4, ADR 0046): Tenpo's own catalogue per store. */

let t: TestApp;
let shop = '';
let shopId = 0;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await buildTestApp();
  shop = await login(t.app, 'shop@tenpo.example');
  for (const u of await t.database.db.selectFrom('users').select(['id', 'email']).execute())
    ids[u.email] = u.id;
  shopId = ids['shop@tenpo.example'] ?? 0;
});
afterAll(async () => t.close());

type Files = Parameters<typeof multipart>[1];
const photo = (data = png(), filename = 'photo.png') => ({ filename, type: 'image/png', data });

const create = (fields: Record<string, string>, files: Files = {}, token = shop) =>
  call(t.app, {
    method: 'POST',
    url: '/api/posts/products',
    token,
    ...multipart({ user_id: String(shopId), ...fields }, files),
  });
const update = (id: number, fields: Record<string, string>, files: Files = {}) =>
  call(t.app, {
    method: 'POST',
    url: `/api/posts/products/${id}`,
    token: shop,
    ...multipart({ user_id: String(shopId), ...fields }, files),
  });
const product = (res: Awaited<ReturnType<typeof create>>): Product => {
  expect(res.statusCode, res.body).toBe(200);
  const p = json<{ data: Product[] }>(res).data[0];
  if (!p) throw new Error('no product');
  return p;
};
const categories = async (storeId = shopId, token = shop) => {
  const res = await call(t.app, {
    method: 'GET',
    url: `/api/posts/products/categories?user_id=${storeId}`,
    token,
  });
  expect(res.statusCode, res.body).toBe(200);
  return json<{ data: ProductCategory[] }>(res).data;
};
type ListBody = {
  data: {
    data: Product[];
    current_page: number;
    last_page: number;
    total: number;
    per_page: number;
  };
};
const list = async (query = '', storeId = shopId, token = shop) => {
  const res = await call(t.app, {
    method: 'GET',
    url: `/api/posts/products?user_id=${storeId}${query}`,
    token,
  });
  expect(res.statusCode, res.body).toBe(200);
  return json<{ data: ListBody }>(res).data.data;
};
const keyOf = (url: string) => url.slice(url.indexOf('/uploads/') + '/uploads/'.length);

/** The category and product the first test makes; the tests after it, in both blocks, use them. */
let drinks = 0;
let latte: Product;

describe('products of a store: adding and listing', () => {
  it('adds a product in a new category, with a price range and a photo measured from its bytes', async () => {
    const bytes = await sharp({
      create: { width: 40, height: 30, channels: 3, background: '#8a5' },
    })
      .png()
      .toBuffer();
    latte = product(
      await create(
        {
          productName: ' 抹茶ラテ ',
          category: '0',
          productCategory: 'ドリンク',
          priceRange: '1',
          minimumPrice: '1200',
          maximumPrice: '3000',
          productDescription: '宇治抹茶のラテ',
          valueButton: '2',
          linkForButton: 'https://shop.example/latte',
        },
        { 'files[0]': photo(bytes) },
      ),
    );
    expect(latte).toMatchObject({
      user_id: shopId,
      productName: '抹茶ラテ',
      category: 'ドリンク',
      productDescription: '宇治抹茶のラテ',
      priceRange: true,
      productPrice: null,
      minimumPrice: 1200,
      maximumPrice: 3000,
      valueButton: 2,
      linkForButton: 'https://shop.example/latte',
    });
    expect(latte.files).toHaveLength(1);
    expect(latte.files[0]).toMatchObject({ width: 40, height: 30 });
    const url = latte.files[0]?.url ?? '';
    expect(keyOf(url)).toMatch(/^media\/products\/[\w-]+\.png$/);
    const img = await t.app.inject({ method: 'GET', url: url.replace('http://tenpo.test', '') });
    expect(img.statusCode).toBe(200);
    expect(img.rawPayload.equals(bytes)).toBe(true);
    drinks = latte.category_id;
    expect(await categories()).toEqual([{ id: drinks, name: 'ドリンク', products_count: 1 }]);
  });

  it('keeps one category per name: "new category" with an existing name reuses it', async () => {
    const tea = product(
      await create({ productName: 'ほうじ茶', category: '0', productCategory: 'ドリンク' }),
    );
    expect(tea.category_id).toBe(drinks);
    const food = product(
      await create({
        productName: '抹茶パフェ',
        category: '0',
        productCategory: 'フード',
        productPrice: '800',
      }),
    );
    expect(food).toMatchObject({
      priceRange: false,
      productPrice: 800,
      minimumPrice: 800,
      maximumPrice: 800,
    });
    expect(tea).toMatchObject({
      productPrice: null,
      minimumPrice: null,
      maximumPrice: null,
      files: [],
    });
    expect(await categories()).toEqual([
      { id: drinks, name: 'ドリンク', products_count: 2 },
      { id: food.category_id, name: 'フード', products_count: 1 },
    ]);
    // An existing category by its id.
    const scone = product(
      await create({
        productName: 'スコーン',
        category: String(food.category_id),
        productPrice: '0',
      }),
    );
    expect(scone).toMatchObject({ category: 'フード', productPrice: 0 });
  });

  it('lists newest first, one tab at a time, and one product by id', async () => {
    const all = await list();
    expect(all.data.map((p) => p.productName)).toEqual([
      'スコーン',
      '抹茶パフェ',
      'ほうじ茶',
      '抹茶ラテ',
    ]);
    expect(all).toMatchObject({ current_page: 1, last_page: 1, total: 4, per_page: 10 });
    const tab = await list(`&category_id=${drinks}`);
    expect(tab.data.map((p) => p.productName)).toEqual(['ほうじ茶', '抹茶ラテ']);
    expect(tab.total).toBe(2);
    const res = await call(t.app, {
      method: 'GET',
      url: `/api/posts/products/${latte.id}?user_id=${shopId}`,
      token: shop,
    });
    expect(json<{ data: Product[] }>(res).data[0]?.productName).toBe('抹茶ラテ');
  });

  it("gives the knowledge tag every product of the store, and only that store's", async () => {
    const all = await t.app.products.all(shopId);
    expect(all.map((p) => p.productName)).toEqual([
      '抹茶ラテ',
      'ほうじ茶',
      '抹茶パフェ',
      'スコーン',
    ]);
    expect(all.every((p) => p.user_id === shopId)).toBe(true);
    expect(await t.app.products.all(ids['trial@tenpo.example'] ?? 0)).toEqual([]);
  });

  it('pages by 10 (spec 2 §9)', async () => {
    const store = ids['store05@tenpo.example'] ?? 0;
    const agency = await login(t.app, 'agency@tenpo.example');
    for (let i = 1; i <= 11; i++) {
      const res = await call(t.app, {
        method: 'POST',
        url: '/api/posts/products',
        token: agency,
        ...multipart({
          user_id: String(store),
          productName: `商品${i}`,
          category: '0',
          productCategory: '雑貨',
        }),
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const first = await list('', store, agency);
    expect(first.data).toHaveLength(10);
    expect(first).toMatchObject({ current_page: 1, last_page: 2, total: 11, per_page: 10 });
    const second = await list('&page=2', store, agency);
    expect(second.data.map((p) => p.productName)).toEqual(['商品1']);
  });
});

describe('products of a store: editing, deleting, and who may', () => {
  it('edits a product: fields, category, photos kept by URL, added, or left alone', async () => {
    const first = latte.files[0]?.url ?? '';
    const edited = product(
      await update(
        latte.id,
        {
          productName: '抹茶ラテ（大）',
          category: '0',
          productCategory: '季節限定',
          priceRange: '0',
          productPrice: '1500',
          valueButton: '0',
          'files[0]': first,
        },
        { 'files[1]': photo() },
      ),
    );
    expect(edited).toMatchObject({
      productName: '抹茶ラテ（大）',
      category: '季節限定',
      priceRange: false,
      productPrice: 1500,
      minimumPrice: 1500,
      maximumPrice: 1500,
      valueButton: 0,
      linkForButton: null,
      productDescription: null,
    });
    expect(edited.files.map((f) => keyOf(f.url))[0]).toBe(keyOf(first));
    expect(edited.files).toHaveLength(2);
    // No files field: the photos stay.
    const again = product(
      await update(latte.id, { productName: '抹茶ラテ', category: String(drinks) }),
    );
    expect(again.files.map((f) => f.url)).toEqual(edited.files.map((f) => f.url));
    // An empty files field clears them, and their objects leave storage.
    const cleared = product(
      await update(latte.id, { productName: '抹茶ラテ', category: String(drinks), files: '' }),
    );
    expect(cleared.files).toEqual([]);
    for (const f of edited.files) expect(await t.app.storage.stat(keyOf(f.url))).toBeNull();
    latte = cleared;
  });

  it('refuses to keep a photo the product does not have', async () => {
    const res = await update(latte.id, {
      productName: '抹茶ラテ',
      category: String(drinks),
      'files[0]': 'http://tenpo.test/uploads/media/products/AAAAAAAAAAAAAAAAAAAAAAAA.png',
    });
    expect(res.statusCode).toBe(422);
    expect(json<{ errors: unknown }>(res).errors).toEqual({
      'files.0': ['指定した写真が見つかりません。'],
    });
  });

  it('deletes a product and its photos', async () => {
    const p = product(
      await create({ productName: '消す商品', category: String(drinks) }, { files: photo() }),
    );
    const key = keyOf(p.files[0]?.url ?? '');
    expect(await t.app.storage.stat(key)).not.toBeNull();
    const res = await call(t.app, {
      method: 'DELETE',
      url: `/api/posts/products/${p.id}?user_id=${shopId}`,
      token: shop,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toMatchObject({ message: '商品を削除しました。' });
    expect(await t.app.storage.stat(key)).toBeNull();
    const gone = await call(t.app, {
      method: 'GET',
      url: `/api/posts/products/${p.id}?user_id=${shopId}`,
      token: shop,
    });
    expect(gone.statusCode).toBe(404);
  });

  it('does not clash with the posts routes: /posts/{id} still answers posts', async () => {
    const res = await call(t.app, {
      method: 'GET',
      url: `/api/posts/999999?user_id=${shopId}`,
      token: shop,
    });
    expect(res.statusCode).toBe(404);
    const listed = await call(t.app, {
      method: 'GET',
      url: `/api/posts?user_id=${shopId}`,
      token: shop,
    });
    expect(listed.statusCode).toBe(200);
    expect(
      json<{ data: ListBody }>(listed).data.data.data.every((p) => !('productName' in p)),
    ).toBe(true);
  });

  it('lets a group leader read its group store’s products but not change them (404)', async () => {
    const leader = await login(t.app, 'leader@tenpo.example');
    const store = ids['store02@tenpo.example'] ?? 0;
    expect(await categories(store, leader)).toEqual([]);
    const res = await create(
      { productName: 'x', category: '0', productCategory: 'y', user_id: String(store) },
      {},
      leader,
    );
    expect(res.statusCode).toBe(404);
  });
});

describe('the rules of spec 2 §5 Products, with their Japanese messages (422)', () => {
  const L = '価格は0以上の整数（円）で入力してください。';
  it.each<[string, Record<string, string>, Record<string, string[]>]>([
    [
      'name and category are required',
      {},
      {
        productName: ['商品名 を入力してください。'],
        category: ['カテゴリー を入力してください。'],
      },
    ],
    [
      'a new category needs its name',
      { productName: 'a', category: '0' },
      { productCategory: ['新しいカテゴリー名 を入力してください。'] },
    ],
    [
      'a price is integer yen',
      { productName: 'a', category: '0', productCategory: 'c', productPrice: '1.5' },
      { productPrice: [L] },
    ],
    [
      'a range needs min ≤ max',
      {
        productName: 'a',
        category: '0',
        productCategory: 'c',
        priceRange: '1',
        minimumPrice: '9',
        maximumPrice: '1',
      },
      { maximumPrice: ['最低価格は最高価格以下にしてください。'] },
    ],
    [
      'a link button needs an http(s) link',
      {
        productName: 'a',
        category: '0',
        productCategory: 'c',
        valueButton: '1',
        linkForButton: 'shop.example',
      },
      { linkForButton: [ja.postButtonLinkInvalid] },
    ],
  ])('%s', async (_n, fields, errors) => {
    const res = await create(fields);
    expect(res.statusCode).toBe(422);
    expect(json<{ errors: unknown }>(res).errors).toEqual(errors);
  });

  it("refuses a category id that is not the store's", async () => {
    const agency = await login(t.app, 'agency@tenpo.example');
    const theirs = await call(t.app, {
      method: 'POST',
      url: '/api/posts/products',
      token: agency,
      ...multipart({
        user_id: String(ids['store06@tenpo.example']),
        productName: 'x',
        category: '0',
        productCategory: '他店',
      }),
    });
    const id = json<{ data: Product[] }>(theirs).data[0]?.category_id;
    const res = await create({ productName: 'a', category: String(id) });
    expect(res.statusCode).toBe(422);
    expect(json<{ errors: unknown }>(res).errors).toEqual({
      category: ['選択したカテゴリーが見つかりません。'],
    });
  });

  it.each([
    [
      'WebP',
      async () =>
        sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
          .webp()
          .toBuffer(),
      'a.webp',
      ja.mediaWebpUnsupported,
    ],
    ['a PNG named .jpg', async () => png(), 'a.jpg', ja.mediaExtensionMismatch('jpg', 'PNG')],
    ['not an image', async () => Buffer.from('hello, not an image'), 'a.png', ja.imageOnly],
  ])('refuses %s from its bytes, and keeps nothing of it', async (_n, bytes, filename, message) => {
    const before = (await list()).total;
    const res = await create(
      { productName: 'a', category: '0', productCategory: '写真テスト' },
      { 'files[0]': { filename, type: 'image/png', data: await bytes() } },
    );
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.values(json<{ errors: Record<string, string[]> }>(res).errors).flat()).toEqual([
      message,
    ]);
    expect((await list()).total).toBe(before);
    const stored = await t.database.db.selectFrom('products').select('photos').execute();
    expect(stored.every((r) => !r.photos.includes('webp'))).toBe(true);
  });
});
