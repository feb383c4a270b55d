import { pageOf, productJa, type Page, type Product, type ProductInput } from '@tenpo/domain';
import type { Clock } from '../../lib/clock';
import { iso } from '../../lib/clock';
import { notFound, validationError } from '../../lib/errors';
import type { MediaStorage } from '../../storage';
import type { ProductsQueries, ProductsRepo, ProductWithCategory } from './products.repo';

/** A stored photo of a product: the object's key in media storage and what its bytes measured. */
export type ProductPhoto = {
  key: string;
  width: number;
  height: number;
  mime: string;
  bytes: number;
};

export const photosOf = (row: Pick<ProductWithCategory, 'photos'>): ProductPhoto[] =>
  JSON.parse(row.photos) as ProductPhoto[];

/**
 * The store's product catalogue (ADR 0046). Categories are resolved here: an existing id of the
 * store, or "new category" (id 0) named by productCategory, which reuses a category of that name.
 */
export function createProductsService(deps: {
  repo: ProductsRepo;
  storage: MediaStorage;
  clock: Clock;
}) {
  const { repo, storage, clock } = deps;

  const present = async (row: ProductWithCategory): Promise<Product> => {
    const range = row.price_range === 1;
    return {
      id: row.id,
      user_id: row.store_id,
      productName: row.name,
      category: row.category,
      category_id: row.category_id,
      productDescription: row.description,
      priceRange: range,
      productPrice: range ? null : row.price,
      minimumPrice: range ? row.min_price : row.price,
      maximumPrice: range ? row.max_price : row.price,
      valueButton: row.button_type,
      linkForButton: row.button_link,
      files: await Promise.all(
        photosOf(row).map(async (p) => ({
          url: await storage.browserUrl(p.key),
          width: p.width,
          height: p.height,
        })),
      ),
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  };

  const categoryId = async (tx: ProductsQueries, storeId: number, input: ProductInput) => {
    if (input.productCategory !== null)
      return tx.ensureCategory(storeId, input.productCategory, iso(clock.now()));
    if (!(await tx.category(storeId, input.categoryId)))
      throw validationError({ category: [productJa.categoryUnknown] });
    return input.categoryId;
  };

  const columns = (input: ProductInput) => ({
    name: input.productName,
    description: input.productDescription,
    price_range: input.priceRange ? 1 : 0,
    price: input.productPrice,
    min_price: input.minimumPrice,
    max_price: input.maximumPrice,
    button_type: input.valueButton,
    button_link: input.linkForButton,
  });

  const found = async (storeId: number, id: number) => {
    const row = await repo.one(storeId, id);
    if (!row) throw notFound();
    return row;
  };

  /** Objects no row names any more; a failure leaves an orphan, never a row without its photo. */
  const dropObjects = async (keys: string[]) => {
    await Promise.all(keys.map((k) => storage.delete(k).catch(() => undefined)));
  };

  return {
    present,
    categories: (storeId: number) => repo.categories(storeId),
    async page(
      storeId: number,
      categoryId: number | undefined,
      page: number,
      perPage: number,
    ): Promise<Page<Product>> {
      const { rows, total } = await repo.page(storeId, categoryId, page, perPage);
      return pageOf(await Promise.all(rows.map(present)), total, page, perPage);
    },
    one: async (storeId: number, id: number) => present(await found(storeId, id)),
    /** Every product of the store, oldest first (the knowledge tag's offers). */
    all: async (storeId: number): Promise<Product[]> =>
      Promise.all((await repo.all(storeId)).map(present)),
    /** The current photos of a product (an edit keeps those it names). */
    photos: async (storeId: number, id: number) => photosOf(await found(storeId, id)),
    async create(storeId: number, input: ProductInput, photos: ProductPhoto[]): Promise<Product> {
      const now = iso(clock.now());
      const id = await repo.transaction(async (tx) =>
        tx.insert({
          store_id: storeId,
          category_id: await categoryId(tx, storeId, input),
          ...columns(input),
          photos: JSON.stringify(photos),
          created_at: now,
          updated_at: now,
        }),
      );
      return present(await found(storeId, id));
    },
    /** `photos` undefined: the product keeps its photos; else they are replaced. */
    async update(
      storeId: number,
      id: number,
      input: ProductInput,
      photos: ProductPhoto[] | undefined,
    ): Promise<Product> {
      const before = await found(storeId, id);
      await repo.transaction(async (tx) =>
        tx.update(storeId, id, {
          category_id: await categoryId(tx, storeId, input),
          ...columns(input),
          ...(photos ? { photos: JSON.stringify(photos) } : {}),
          updated_at: iso(clock.now()),
        }),
      );
      if (photos) {
        const kept = new Set(photos.map((p) => p.key));
        await dropObjects(
          photosOf(before)
            .map((p) => p.key)
            .filter((k) => !kept.has(k)),
        );
      }
      return present(await found(storeId, id));
    },
    async remove(storeId: number, id: number): Promise<Product> {
      const row = await found(storeId, id);
      const view = await present(row);
      await repo.remove(storeId, id);
      await dropObjects(photosOf(row).map((p) => p.key));
      return view;
    },
  };
}
export type ProductsService = ReturnType<typeof createProductsService>;
