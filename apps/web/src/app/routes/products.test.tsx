import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Page, Product, ProductCategory, StoreRow } from '@tenpo/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import { selectStores } from '../../lib/selection';
import {
  fail,
  mockApi,
  ok,
  renderAt,
  resetState,
  signIn,
  type MockReply,
  type MockRequest,
} from '../../test/render';

const product = (id: number, over: Partial<Product> = {}): Product => ({
  id,
  user_id: 1,
  productName: `商品${id}`,
  category: 'ドリンク',
  category_id: 7,
  productDescription: null,
  priceRange: true,
  productPrice: null,
  minimumPrice: 1200,
  maximumPrice: 3000,
  valueButton: 0,
  linkForButton: null,
  files: [],
  created_at: '2026-11-25T00:00:00.000Z',
  updated_at: '2026-11-25T00:00:00.000Z',
  ...over,
});

const pageOf = (rows: Product[], page = 1, total = rows.length): { data: Page<Product> } => ({
  data: {
    data: rows,
    current_page: page,
    last_page: Math.max(1, Math.ceil(total / 10)),
    total,
    per_page: 10,
    from: rows.length ? (page - 1) * 10 + 1 : null,
    to: rows.length ? (page - 1) * 10 + rows.length : null,
  },
});

const cats: ProductCategory[] = [
  { id: 7, name: 'ドリンク', products_count: 1 },
  { id: 8, name: 'フード', products_count: 1 },
  { id: 9, name: '空の分類', products_count: 0 },
];
const latte = product(1, { productName: '抹茶ラテ' });
const parfait = product(2, {
  productName: '抹茶パフェ',
  category: 'フード',
  category_id: 8,
  priceRange: false,
  productPrice: 800,
  minimumPrice: 800,
  maximumPrice: 800,
});

const api = (extra: Record<string, MockReply> = {}) =>
  mockApi({
    'GET /posts/products/categories': ok(cats),
    'GET /posts/products': (req) => {
      const c = req.url.searchParams.get('category_id');
      const rows = [latte, parfait].filter((p) => !c || String(p.category_id) === c);
      return ok(pageOf(rows));
    },
    ...extra,
  });

const dialog = () => screen.findByRole('dialog', { name: '商品を追加' });
const sent = (calls: MockRequest[], path = '/posts/products') =>
  calls.filter((c) => c.method === 'POST' && c.path === path);
const choose = async (label: string, option: string) => {
  const d = screen.getByRole('dialog');
  await userEvent.click(within(d).getByRole('combobox', { name: new RegExp(label) }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
};

beforeEach(resetState);

describe('/products: the list', () => {
  it('shows tabs "すべて" and one per category with products, and cards with the price in yen', async () => {
    const { calls } = api();
    signIn();
    renderAt('/products');
    const latteCard = await screen.findByRole('article', { name: '抹茶ラテ' });
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['すべて', 'ドリンク', 'フード']);
    // Each tab controls a panel that exists (ADR 0073); the chosen one holds the cards.
    for (const tab of tabs) {
      expect(document.getElementById(tab.getAttribute('aria-controls') ?? '')).toHaveAttribute(
        'role',
        'tabpanel',
      );
    }
    expect(screen.getByRole('tabpanel', { name: 'すべて' })).toContainElement(latteCard);
    expect(within(latteCard).getByText('¥1,200〜¥3,000')).toBeInTheDocument();
    expect(
      within(screen.getByRole('article', { name: '抹茶パフェ' })).getByText('¥800'),
    ).toBeInTheDocument();
    // The store is the user's own (spec 2 §2: no store-selection guard).
    expect(calls.find((c) => c.path === '/posts/products')?.url.searchParams.get('user_id')).toBe(
      '1',
    );
    await userEvent.click(screen.getByRole('tab', { name: 'フード' }));
    await waitFor(() =>
      expect(screen.queryByRole('article', { name: '抹茶ラテ' })).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('article', { name: '抹茶パフェ' })).toBeInTheDocument();
    expect(calls.at(-1)?.url.searchParams.get('category_id')).toBe('8');
  });

  it('pages by 10', async () => {
    const rows = Array.from({ length: 10 }, (_, i) => product(i + 1));
    const { calls } = mockApi({
      'GET /posts/products/categories': ok(cats),
      'GET /posts/products': (req) =>
        req.url.searchParams.get('page') === '2'
          ? ok(pageOf([product(11, { productName: '十一番目' })], 2, 11))
          : ok(pageOf(rows, 1, 11)),
    });
    signIn();
    renderAt('/products');
    expect(await screen.findAllByRole('article')).toHaveLength(10);
    expect(screen.getByText('11件中 1〜10件')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '2' }));
    expect(await screen.findByRole('article', { name: '十一番目' })).toBeInTheDocument();
    expect(calls.at(-1)?.url.searchParams.get('page')).toBe('2');
  });
});

describe('/products: the add-product modal', () => {
  it('the add-product modal requires the name and the category (spec 2 §5), and sends nothing', async () => {
    const { calls } = api();
    signIn();
    renderAt('/products');
    await userEvent.click(await screen.findByRole('button', { name: '商品を追加' }));
    const d = await dialog();
    await userEvent.click(within(d).getByRole('button', { name: '保存' }));
    expect(await within(d).findByText('商品名 を入力してください。')).toBeInTheDocument();
    expect(within(d).getByText('カテゴリー を入力してください。')).toBeInTheDocument();
    expect(sent(calls)).toHaveLength(0);
  });

  it('requires the new category name when the first option (new category) is chosen', async () => {
    const { calls } = api();
    signIn();
    renderAt('/products');
    await userEvent.click(await screen.findByRole('button', { name: '商品を追加' }));
    const d = await dialog();
    await userEvent.type(within(d).getByRole('textbox', { name: /商品名/ }), '抹茶ラテ');
    await choose('カテゴリー', '新しいカテゴリー');
    await userEvent.click(within(d).getByRole('button', { name: '保存' }));
    expect(
      await within(d).findByText('新しいカテゴリー名 を入力してください。'),
    ).toBeInTheDocument();
    expect(sent(calls)).toHaveLength(0);
  });

  it('checks the price range (both ends, min ≤ max) and the button link', async () => {
    const { calls } = api();
    signIn();
    renderAt('/products');
    await userEvent.click(await screen.findByRole('button', { name: '商品を追加' }));
    const d = await dialog();
    await userEvent.type(within(d).getByRole('textbox', { name: /商品名/ }), '抹茶ラテ');
    await choose('カテゴリー', 'ドリンク');
    await userEvent.type(within(d).getByRole('textbox', { name: '価格' }), '-5');
    await userEvent.click(within(d).getByRole('button', { name: '保存' }));
    expect(
      await within(d).findByText('価格は0以上の整数（円）で入力してください。'),
    ).toBeInTheDocument();
    await userEvent.click(within(d).getByRole('switch', { name: '価格帯で指定する' }));
    await userEvent.click(within(d).getByRole('button', { name: '保存' }));
    expect(await within(d).findByText('最低価格 を入力してください。')).toBeInTheDocument();
    expect(within(d).getByText('最高価格 を入力してください。')).toBeInTheDocument();
    await userEvent.type(within(d).getByRole('textbox', { name: /最低価格/ }), '3000');
    await userEvent.type(within(d).getByRole('textbox', { name: /最高価格/ }), '1200');
    await choose('ボタン', '予約');
    await userEvent.click(within(d).getByRole('button', { name: '保存' }));
    expect(
      await within(d).findByText('最低価格は最高価格以下にしてください。'),
    ).toBeInTheDocument();
    expect(within(d).getByText('ボタンのリンクを入力してください。')).toBeInTheDocument();
    await userEvent.type(
      within(d).getByRole('textbox', { name: /ボタンのリンク/ }),
      'shop.example',
    );
    await userEvent.click(within(d).getByRole('button', { name: '保存' }));
    expect(
      await within(d).findByText(
        'ボタンのリンクには http:// または https:// で始まる URL を入力してください。',
      ),
    ).toBeInTheDocument();
    expect(sent(calls)).toHaveLength(0);
  });

  it('adds a product in a new category: the spec’s fields as multipart, then the list again', async () => {
    const { calls } = api({
      'POST /posts/products': ok([product(3, { productName: 'ほうじ茶' })], '商品を追加しました。'),
    });
    signIn();
    renderAt('/products');
    await userEvent.click(await screen.findByRole('button', { name: '商品を追加' }));
    const d = await dialog();
    await userEvent.type(within(d).getByRole('textbox', { name: /商品名/ }), 'ほうじ茶');
    await choose('カテゴリー', '新しいカテゴリー');
    await userEvent.type(within(d).getByRole('textbox', { name: /新しいカテゴリー名/ }), 'お茶');
    await userEvent.click(within(d).getByRole('switch', { name: '価格帯で指定する' }));
    await userEvent.type(within(d).getByRole('textbox', { name: /最低価格/ }), '500');
    await userEvent.type(within(d).getByRole('textbox', { name: /最高価格/ }), '900');
    await choose('ボタン', 'オンライン注文');
    await userEvent.type(
      within(d).getByRole('textbox', { name: /ボタンのリンク/ }),
      'https://shop.example/tea',
    );
    const lists = calls.filter((c) => c.path === '/posts/products').length;
    await userEvent.click(within(d).getByRole('button', { name: '保存' }));
    expect(await screen.findByText('商品を追加しました。')).toBeInTheDocument();
    const body = sent(calls)[0]?.body as FormData;
    expect(Object.fromEntries(body.entries())).toEqual({
      user_id: '1',
      productName: 'ほうじ茶',
      category: '0',
      productCategory: 'お茶',
      priceRange: '1',
      productPrice: '',
      minimumPrice: '500',
      maximumPrice: '900',
      productDescription: '',
      valueButton: '2',
      linkForButton: 'https://shop.example/tea',
    });
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: '商品を追加' })).not.toBeInTheDocument(),
    );
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/posts/products').length).toBeGreaterThan(lists),
    );
  });

  it("shows the server's refusal under its field and keeps the modal open", async () => {
    api({
      'POST /posts/products': fail(422, { category: ['選択したカテゴリーが見つかりません。'] }),
    });
    signIn();
    renderAt('/products');
    await userEvent.click(await screen.findByRole('button', { name: '商品を追加' }));
    const d = await dialog();
    await userEvent.type(within(d).getByRole('textbox', { name: /商品名/ }), '抹茶ラテ');
    await choose('カテゴリー', 'ドリンク');
    await userEvent.click(within(d).getByRole('button', { name: '保存' }));
    expect(await within(d).findAllByText('選択したカテゴリーが見つかりません。')).toHaveLength(2);
  });
});

describe('/products: editing and deleting', () => {
  it('edits a product from its card, prefilled, and keeps its photo by URL', async () => {
    const withPhoto = product(1, {
      productName: '抹茶ラテ',
      files: [
        { url: 'http://tenpo.test/uploads/media/products/abcdefgh12.png', width: 4, height: 4 },
      ],
    });
    const { calls } = mockApi({
      'GET /posts/products/categories': ok(cats),
      'GET /posts/products': ok(pageOf([withPhoto])),
      'POST /posts/products/1': ok([withPhoto], '商品を更新しました。'),
    });
    signIn();
    renderAt('/products');
    const card = await screen.findByRole('article', { name: '抹茶ラテ' });
    await userEvent.click(within(card).getByRole('button', { name: '編集' }));
    const d = await screen.findByRole('dialog', { name: '商品を編集' });
    const name = within(d).getByRole('textbox', { name: /商品名/ });
    expect(name).toHaveValue('抹茶ラテ');
    expect(within(d).getByRole('textbox', { name: /最低価格/ })).toHaveValue('1200');
    await userEvent.clear(name);
    await userEvent.type(name, '抹茶ラテ（大）');
    await userEvent.click(within(d).getByRole('button', { name: '保存' }));
    expect(await screen.findByText('商品を更新しました。')).toBeInTheDocument();
    const body = sent(calls, '/posts/products/1')[0]?.body as FormData;
    expect(body.get('productName')).toBe('抹茶ラテ（大）');
    expect(body.get('category')).toBe('7');
    expect(body.get('files[0]')).toBe(withPhoto.files[0]?.url);
  });

  it('clears the photos of a product when the last one is taken off', async () => {
    const withPhoto = product(1, {
      productName: '抹茶ラテ',
      files: [
        { url: 'http://tenpo.test/uploads/media/products/abcdefgh12.png', width: 4, height: 4 },
      ],
    });
    const { calls } = mockApi({
      'GET /posts/products/categories': ok(cats),
      'GET /posts/products': ok(pageOf([withPhoto])),
      'POST /posts/products/1': ok([{ ...withPhoto, files: [] }], '商品を更新しました。'),
    });
    signIn();
    renderAt('/products');
    const card = await screen.findByRole('article', { name: '抹茶ラテ' });
    await userEvent.click(within(card).getByRole('button', { name: '編集' }));
    const d = await screen.findByRole('dialog', { name: '商品を編集' });
    expect(within(d).getByRole('img', { name: '抹茶ラテの写真1' })).toBeInTheDocument();
    await userEvent.click(within(d).getByRole('button', { name: '写真1を外す' }));
    expect(within(d).queryByRole('img', { name: '抹茶ラテの写真1' })).not.toBeInTheDocument();
    await userEvent.click(within(d).getByRole('button', { name: '保存' }));
    expect(await screen.findByText('商品を更新しました。')).toBeInTheDocument();
    const body = sent(calls, '/posts/products/1')[0]?.body as FormData;
    expect(body.get('files')).toBe('');
    expect(body.get('files[0]')).toBeNull();
  });

  it('deletes a product only after the confirm', async () => {
    const { calls } = api({ 'DELETE /posts/products/2': ok([parfait], '商品を削除しました。') });
    signIn();
    renderAt('/products');
    const card = await screen.findByRole('article', { name: '抹茶パフェ' });
    await userEvent.click(within(card).getByRole('button', { name: '削除' }));
    const confirm = await screen.findByRole('dialog', { name: '商品を削除しますか？' });
    expect(within(confirm).getByText(/「抹茶パフェ」を削除します。/)).toBeInTheDocument();
    await userEvent.click(within(confirm).getByRole('button', { name: 'キャンセル' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await userEvent.click(within(card).getByRole('button', { name: '削除' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: '商品を削除しますか？' })).getByRole(
        'button',
        { name: '削除' },
      ),
    );
    expect(await screen.findByText('商品を削除しました。')).toBeInTheDocument();
    const del = calls.find((c) => c.method === 'DELETE');
    expect(del?.url.searchParams.get('user_id')).toBe('1');
  });

  it("an agency works on its selected store's catalogue", async () => {
    const store = (id: number): StoreRow => ({
      id,
      name: `店舗${id}`,
      status: 1,
      role: 1,
      in_trial: false,
      agency_logo: null,
      agent_code: 'demo',
      company_name: null,
      person_in_charge: null,
      email: `s${id}@tenpo.example`,
      google_status: 2,
      payment_fail: false,
    });
    const { calls } = api({
      'GET /agency/groups': ok([]),
      'GET /agency/stores': ok({
        data: [store(3), store(4)],
        current_page: 1,
        last_page: 1,
        total: 2,
        per_page: 100,
        from: 1,
        to: 2,
      }),
    });
    signIn({ id: 50, role: 11 });
    selectStores([store(3)], null);
    renderAt('/products');
    await screen.findByRole('article', { name: '抹茶ラテ' });
    expect(
      calls
        .filter((c) => c.path.startsWith('/posts/products'))
        .map((c) => c.url.searchParams.get('user_id')),
    ).toEqual(['3', '3']);
  });
});
