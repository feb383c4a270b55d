import { z } from 'zod';
import { ID_MAX, idField } from '../ids';
import { ja } from '../messages/ja';
import { productJa } from '../messages/products';
import { PRODUCT_PRICE_MAX } from './limits';
import { paged } from '../paging/paging';
import { POST_BUTTON } from '../post-calls/schemas';
import { HTTP_URL_RE } from '../posts/post-rules';

/**
 * Products (spec 2 §2, §3, §5, §7; issue 11 item 4; ADR 0046): Tenpo's own catalogue per store,
 * in yen. The add-product form's fields keep the spec's names (productName, category,
 * productCategory, priceRange, productPrice, minimumPrice, maximumPrice, productDescription,
 * valueButton, linkForButton, files); the same rules judge the form and the API's request.
 */

/** Spec 2 §9: products are listed 10 a page. */
export const PRODUCTS_PER_PAGE = 10;
export const PRODUCTS_MAX_PER_PAGE = 50;
/** The first category option: "new category", named by productCategory (spec 2 §5). */
export const PRODUCT_NEW_CATEGORY_ID = 0;
export const PRODUCT_NAME_MAX = 100;
export const PRODUCT_CATEGORY_MAX = 50;
export const PRODUCT_DESCRIPTION_MAX = 1000;

/** The post button types of spec 2 §3 without "call now": a product's page has no phone of its own. */
export const PRODUCT_BUTTONS = {
  none: POST_BUTTON.none,
  book: POST_BUTTON.book,
  orderOnline: POST_BUTTON.orderOnline,
  learnMore: POST_BUTTON.learnMore,
  signUp: POST_BUTTON.signUp,
} as const;
export const PRODUCT_BUTTON_VALUES: readonly number[] = Object.values(PRODUCT_BUTTONS);
/** Every product button but "none" opens a link: linkForButton is then required, http(s). */
export const PRODUCT_LINK_BUTTONS: readonly number[] = PRODUCT_BUTTON_VALUES.filter(
  (v) => v !== PRODUCT_BUTTONS.none,
);

/** A price field's text: empty → null; else integer yen in range, or the message why not. */
export const readYen = (
  text: string | number | null | undefined,
  label: string,
): { ok: true; value: number | null } | { ok: false; message: string } => {
  const s = text === null || text === undefined ? '' : String(text).trim();
  if (s === '') return { ok: true, value: null };
  if (!/^\d+$/.test(s)) return { ok: false, message: productJa.priceInteger(label) };
  const n = Number(s);
  if (n > PRODUCT_PRICE_MAX) return { ok: false, message: productJa.priceTooHigh(label) };
  return { ok: true, value: n };
};

const text = z
  .union([z.string(), z.number()])
  .transform((v) => String(v))
  .optional();
const onOff = z
  .union([z.boolean(), z.string(), z.number()])
  .transform((v) => v === true || v === 1 || v === '1' || v === 'true' || v === 'on')
  .optional();

/**
 * The add/edit form as sent (multipart text fields, or the form's values): the rules of spec 2
 * §5 Products and ADR 0046 in one place. Its output is the product to store.
 */
export const productFormSchema = z
  .object({
    productName: text,
    category: text,
    productCategory: text,
    priceRange: onOff,
    productPrice: text,
    minimumPrice: text,
    maximumPrice: text,
    productDescription: text,
    valueButton: text,
    linkForButton: text,
  })
  .transform((f, ctx) => {
    const L = productJa.labels;
    const add = (path: string, message: string) =>
      ctx.addIssue({ code: 'custom', path: [path], message });
    const name = (f.productName ?? '').trim();
    if (!name) add('productName', ja.required(L.productName));
    else if (name.length > PRODUCT_NAME_MAX)
      add('productName', ja.maxLength(L.productName, PRODUCT_NAME_MAX));

    const cat = (f.category ?? '').trim();
    let categoryId: number | null = null;
    if (!cat) add('category', ja.required(L.category));
    else if (!/^\d{1,10}$/.test(cat) || Number(cat) > ID_MAX)
      add('category', productJa.categoryUnknown);
    else categoryId = Number(cat);
    const newName = (f.productCategory ?? '').trim();
    if (categoryId === PRODUCT_NEW_CATEGORY_ID) {
      if (!newName) add('productCategory', ja.required(L.productCategory));
      else if (newName.length > PRODUCT_CATEGORY_MAX)
        add('productCategory', ja.maxLength(L.productCategory, PRODUCT_CATEGORY_MAX));
    }

    const range = f.priceRange ?? false;
    const yen = (key: 'productPrice' | 'minimumPrice' | 'maximumPrice') => {
      const r = readYen(f[key], L[key]);
      if (!r.ok) {
        add(key, r.message);
        return undefined;
      }
      return r.value;
    };
    let price: number | null | undefined = null;
    let min: number | null | undefined = null;
    let max: number | null | undefined = null;
    if (range) {
      min = yen('minimumPrice');
      max = yen('maximumPrice');
      if (min === null) add('minimumPrice', ja.required(L.minimumPrice));
      if (max === null) add('maximumPrice', ja.required(L.maximumPrice));
      if (typeof min === 'number' && typeof max === 'number' && min > max)
        add('maximumPrice', productJa.minAboveMax);
    } else {
      price = yen('productPrice');
    }

    const description = (f.productDescription ?? '').trim();
    if (description.length > PRODUCT_DESCRIPTION_MAX)
      add('productDescription', ja.maxLength(L.productDescription, PRODUCT_DESCRIPTION_MAX));

    const b = (f.valueButton ?? '').trim() || String(PRODUCT_BUTTONS.none);
    const button = /^\d+$/.test(b) ? Number(b) : NaN;
    if (!PRODUCT_BUTTON_VALUES.includes(button)) add('valueButton', productJa.buttonInvalid);
    const link = (f.linkForButton ?? '').trim();
    if (PRODUCT_LINK_BUTTONS.includes(button)) {
      if (!link) add('linkForButton', ja.postButtonLinkRequired);
      else if (!HTTP_URL_RE.test(link)) add('linkForButton', ja.postButtonLinkInvalid);
    }
    return {
      productName: name,
      categoryId: categoryId ?? PRODUCT_NEW_CATEGORY_ID,
      productCategory: categoryId === PRODUCT_NEW_CATEGORY_ID ? newName : null,
      priceRange: range,
      productPrice: range ? null : (price ?? null),
      minimumPrice: range ? (min ?? null) : null,
      maximumPrice: range ? (max ?? null) : null,
      productDescription: description || null,
      valueButton: PRODUCT_LINK_BUTTONS.includes(button) ? button : PRODUCT_BUTTONS.none,
      linkForButton: PRODUCT_LINK_BUTTONS.includes(button) ? link : null,
    };
  });
export type ProductFormInput = z.input<typeof productFormSchema>;
export type ProductInput = z.output<typeof productFormSchema>;

export const productCategorySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** How many of the store's products are in it (the screen shows a tab for each non-empty one). */
  products_count: z.number().int(),
});
export type ProductCategory = z.infer<typeof productCategorySchema>;

export const productPhotoSchema = z.object({
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});

/**
 * A product as the screen reads it (spec 2 §3). minimumPrice and maximumPrice are the range's
 * ends, or both the single price (a card shows "¥min〜¥max", or "¥price" when they are equal);
 * all null when no price is given.
 */
export const productSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  productName: z.string(),
  category: z.string(),
  category_id: z.number().int(),
  productDescription: z.string().nullable(),
  priceRange: z.boolean(),
  productPrice: z.number().int().nullable(),
  minimumPrice: z.number().int().nullable(),
  maximumPrice: z.number().int().nullable(),
  valueButton: z.number().int(),
  linkForButton: z.string().nullable(),
  files: z.array(productPhotoSchema),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Product = z.infer<typeof productSchema>;

const storeId = idField();
export const productStoreQuery = z.object({ user_id: storeId });
export const productListQuery = z.object({
  user_id: storeId,
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(PRODUCTS_MAX_PER_PAGE).default(PRODUCTS_PER_PAGE),
  /** A tab: the products of one category (absent: all). */
  category_id: idField().optional(),
});
export const productListResponse = z.object({ data: paged(productSchema) });
export const productCategoriesResponse = z.array(productCategorySchema);

/** The card's price: "¥1,200〜¥3,000", "¥800", or null without a price (ja-JP grouping). */
export const formatProductPrice = (
  p: Pick<Product, 'minimumPrice' | 'maximumPrice'>,
): string | null => {
  const yen = (n: number) => `¥${n.toLocaleString('ja-JP')}`;
  if (p.minimumPrice === null || p.maximumPrice === null) return null;
  return p.minimumPrice === p.maximumPrice
    ? yen(p.minimumPrice)
    : `${yen(p.minimumPrice)}〜${yen(p.maximumPrice)}`;
};
