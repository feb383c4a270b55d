import { describe, expect, it } from 'vitest';
import { formatProductPrice, productFormSchema, type ProductFormInput } from './schemas';

const errorsOf = (input: ProductFormInput): Record<string, string[]> => {
  const r = productFormSchema.safeParse(input);
  if (r.success) return {};
  const out: Record<string, string[]> = {};
  for (const i of r.error.issues) (out[String(i.path[0])] ??= []).push(i.message);
  return out;
};

const base: ProductFormInput = { productName: '抹茶ラテ', category: '3' };

describe('the product form (spec 2 §5 Products, ADR 0046)', () => {
  it.each<[string, ProductFormInput, Record<string, string[]>]>([
    ['name and category suffice', base, {}],
    [
      'name and category are required',
      { productName: ' ', category: '' },
      {
        productName: ['商品名 を入力してください。'],
        category: ['カテゴリー を入力してください。'],
      },
    ],
    [
      'the new category (id 0) needs a name',
      { ...base, category: '0', productCategory: '' },
      { productCategory: ['新しいカテゴリー名 を入力してください。'] },
    ],
    ['the new category with a name', { ...base, category: '0', productCategory: 'ドリンク' }, {}],
    [
      'a category that is no id',
      { ...base, category: 'x' },
      { category: ['選択したカテゴリーが見つかりません。'] },
    ],
    ['a single price is optional', { ...base, productPrice: '' }, {}],
    ['a price of 0 yen', { ...base, productPrice: '0' }, {}],
    [
      'a negative price',
      { ...base, productPrice: '-1' },
      { productPrice: ['価格は0以上の整数（円）で入力してください。'] },
    ],
    [
      'a price with decimals',
      { ...base, productPrice: '12.5' },
      { productPrice: ['価格は0以上の整数（円）で入力してください。'] },
    ],
    [
      'a price too high',
      { ...base, productPrice: '100000000' },
      { productPrice: ['価格は99,999,999円以下で入力してください。'] },
    ],
    [
      'the range needs both ends',
      { ...base, priceRange: true },
      {
        minimumPrice: ['最低価格 を入力してください。'],
        maximumPrice: ['最高価格 を入力してください。'],
      },
    ],
    [
      'the range: min above max',
      { ...base, priceRange: '1', minimumPrice: '3000', maximumPrice: '1200' },
      { maximumPrice: ['最低価格は最高価格以下にしてください。'] },
    ],
    [
      'the range: min equal to max',
      { ...base, priceRange: 'true', minimumPrice: '500', maximumPrice: '500' },
      {},
    ],
    [
      'a link button needs its link',
      { ...base, valueButton: '2' },
      { linkForButton: ['ボタンのリンクを入力してください。'] },
    ],
    [
      'a link button needs an http(s) link',
      { ...base, valueButton: '4', linkForButton: 'ftp://shop.example' },
      {
        linkForButton: [
          'ボタンのリンクには http:// または https:// で始まる URL を入力してください。',
        ],
      },
    ],
    [
      'call now (6) is no product button',
      { ...base, valueButton: '6' },
      { valueButton: ['ボタンの種類が正しくありません。'] },
    ],
    ['no button needs no link', { ...base, valueButton: '0', linkForButton: '' }, {}],
  ])('%s', (_name, input, errors) => {
    expect(errorsOf(input)).toEqual(errors);
  });

  it('gives the product to store: the range or the price, the link only with a link button', () => {
    expect(
      productFormSchema.parse({
        ...base,
        priceRange: true,
        productPrice: '999',
        minimumPrice: '1200',
        maximumPrice: '3000',
        valueButton: '0',
        linkForButton: 'https://ignored.example',
      }),
    ).toEqual({
      productName: '抹茶ラテ',
      categoryId: 3,
      productCategory: null,
      priceRange: true,
      productPrice: null,
      minimumPrice: 1200,
      maximumPrice: 3000,
      productDescription: null,
      valueButton: 0,
      linkForButton: null,
    });
  });

  it.each([
    [{ minimumPrice: 1200, maximumPrice: 3000 }, '¥1,200〜¥3,000'],
    [{ minimumPrice: 800, maximumPrice: 800 }, '¥800'],
    [{ minimumPrice: null, maximumPrice: null }, null],
  ])('shows the price %j as %s', (p, shown) => {
    expect(formatProductPrice(p)).toBe(shown);
  });
});
