import type { Page, Product, ProductCategory } from '@tenpo/domain';
import { api } from '@/lib/api-client';

/** The products calls of spec 2 §7 (ADR 0046): one store's catalogue. */

export const productKeys = {
  all: (userId: number) => ['products', userId] as const,
  categories: (userId: number) => ['products', userId, 'categories'] as const,
  page: (userId: number, categoryId: number | null, page: number) =>
    ['products', userId, 'list', categoryId ?? 'all', page] as const,
};

export const categoriesCall = async (userId: number): Promise<ProductCategory[]> =>
  (await api<ProductCategory[]>('/posts/products/categories', { query: { user_id: userId } })).data;

export const productsCall = async (
  userId: number,
  categoryId: number | null,
  page: number,
  signal?: AbortSignal,
): Promise<Page<Product>> =>
  (
    await api<{ data: Page<Product> }>('/posts/products', {
      query: { user_id: userId, page, category_id: categoryId },
      signal,
    })
  ).data.data;

/** The form's text fields, as the spec names them. */
export type ProductFields = {
  productName: string;
  category: string;
  productCategory: string;
  priceRange: boolean;
  productPrice: string;
  minimumPrice: string;
  maximumPrice: string;
  productDescription: string;
  valueButton: string;
  linkForButton: string;
};

/**
 * POST /posts/products (new) or /posts/products/{id} (edit), multipart. `files` are new photos
 * (File) and, on an edit, the URLs of the photos kept; an empty list clears them.
 */
export const saveProductCall = async (
  userId: number,
  id: number | null,
  fields: ProductFields,
  files: (File | string)[],
) => {
  const body = new FormData();
  body.set('user_id', String(userId));
  for (const [k, v] of Object.entries(fields))
    body.set(k, typeof v === 'boolean' ? (v ? '1' : '0') : v);
  if (files.length === 0 && id !== null) body.set('files', '');
  files.forEach((f, i) => body.set(`files[${i}]`, f));
  const r = await api<Product[]>(id === null ? '/posts/products' : `/posts/products/${id}`, {
    method: 'POST',
    body,
  });
  return { message: r.message, product: r.data[0] };
};

export const deleteProductCall = async (userId: number, id: number) =>
  (
    await api<Product[]>(`/posts/products/${id}`, {
      method: 'DELETE',
      query: { user_id: userId },
    })
  ).message;
