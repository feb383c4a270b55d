import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../../db/kysely';
import type { ProductsTable } from '../../db/types';

/** A product row with its category's name. */
export type ProductWithCategory = {
  id: number;
  store_id: number;
  category_id: number;
  category: string;
  name: string;
  description: string | null;
  price_range: number;
  price: number | null;
  min_price: number | null;
  max_price: number | null;
  button_type: number;
  button_link: string | null;
  photos: string;
  created_at: string;
  updated_at: string;
};

const queries = (db: Db) => {
  const withCategory = () =>
    db
      .selectFrom('products as p')
      .innerJoin('product_categories as c', 'c.id', 'p.category_id')
      .select([
        'p.id',
        'p.store_id',
        'p.category_id',
        'c.name as category',
        'p.name',
        'p.description',
        'p.price_range',
        'p.price',
        'p.min_price',
        'p.max_price',
        'p.button_type',
        'p.button_link',
        'p.photos',
        'p.created_at',
        'p.updated_at',
      ]);
  return {
    /** The store's categories, oldest first, with how many products each holds. */
    async categories(storeId: number) {
      const rows = await db
        .selectFrom('product_categories as c')
        .leftJoin('products as p', 'p.category_id', 'c.id')
        .where('c.store_id', '=', storeId)
        .groupBy(['c.id', 'c.name'])
        .select((e) => ['c.id', 'c.name', e.fn.count<number>('p.id').as('products_count')])
        .orderBy('c.id')
        .execute();
      return rows.map((r) => ({ ...r, products_count: Number(r.products_count) }));
    },
    category: (storeId: number, id: number) =>
      db
        .selectFrom('product_categories')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst(),
    /** The store's category of this name, created when it has none (a name is unique per store). */
    async ensureCategory(storeId: number, name: string, now: string): Promise<number> {
      await db
        .insertInto('product_categories')
        .values({ store_id: storeId, name, created_at: now })
        .onConflict((oc) => oc.columns(['store_id', 'name']).doNothing())
        .execute();
      const row = await db
        .selectFrom('product_categories')
        .select('id')
        .where('store_id', '=', storeId)
        .where('name', '=', name)
        .executeTakeFirstOrThrow();
      return row.id;
    },
    /** One page of the store's products, newest first; one category's when `categoryId` is given. */
    async page(storeId: number, categoryId: number | undefined, page: number, perPage: number) {
      let q = withCategory().where('p.store_id', '=', storeId);
      if (categoryId !== undefined) q = q.where('p.category_id', '=', categoryId);
      let count = db.selectFrom('products').where('store_id', '=', storeId);
      if (categoryId !== undefined) count = count.where('category_id', '=', categoryId);
      const total = Number(
        (await count.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0,
      );
      const rows = await q
        .orderBy('p.created_at', 'desc')
        .orderBy('p.id', 'desc')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute();
      return { rows, total };
    },
    one: (storeId: number, id: number): Promise<ProductWithCategory | undefined> =>
      withCategory().where('p.store_id', '=', storeId).where('p.id', '=', id).executeTakeFirst(),
    /** Every product of the store (the knowledge tag's offers). */
    all: (storeId: number): Promise<ProductWithCategory[]> =>
      withCategory().where('p.store_id', '=', storeId).orderBy('p.id').execute(),
    async insert(row: Insertable<ProductsTable>): Promise<number> {
      const r = await db
        .insertInto('products')
        .values(row)
        .returning('id')
        .executeTakeFirstOrThrow();
      return r.id;
    },
    async update(storeId: number, id: number, patch: Updateable<ProductsTable>): Promise<void> {
      await db
        .updateTable('products')
        .set(patch)
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .execute();
    },
    async remove(storeId: number, id: number): Promise<void> {
      await db
        .deleteFrom('products')
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .execute();
    },
  };
};

export type ProductsQueries = ReturnType<typeof queries>;

export function createProductsRepo(db: Db) {
  return {
    ...queries(db),
    /** Every write in `fn` commits together or not at all. */
    transaction: <T>(fn: (repo: ProductsQueries) => Promise<T>): Promise<T> =>
      db.transaction().execute((trx) => fn(queries(trx))),
  };
}
export type ProductsRepo = ReturnType<typeof createProductsRepo>;
