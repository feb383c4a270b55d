import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import {
  fieldLabels,
  idParams,
  ja,
  ok,
  PRODUCT_MAX_FILES,
  productCategoriesResponse,
  productFormSchema,
  productJa,
  productListQuery,
  productListResponse,
  productSchema,
  productStoreQuery,
  type Product,
  type ProductInput,
} from '@tenpo/domain';
import { fieldErrorsOf, validationError } from '../../lib/errors';
import { okData, withZod } from '../../lib/route';
import {
  registerUploadRoutes,
  withMultipart,
  type ImageRule,
  type MultipartBody,
} from '../../lib/uploads';
import { inspectMedia } from '../../media/inspect';
import { actorOf } from '../../plugins/auth';
import { isMediaKey, MEDIA_PATH_PREFIX, type MediaStorage } from '../../storage';
import type { StoreAccess } from '../stores/access';
import type { AuditLog } from '../audit/audit.repo';
import type { ProductPhoto, ProductsService } from './products.service';
import { multipartStoreRoute, storeRoute, storeOf } from '../../plugins/route-guards';

/** A product's fields as the audit log shows them (photos by count). */
const productFields = (p: Product): Record<string, unknown> => ({
  productName: p.productName,
  category: p.category,
  productDescription: p.productDescription,
  priceRange: p.priceRange,
  productPrice: p.productPrice,
  minimumPrice: p.minimumPrice,
  maximumPrice: p.maximumPrice,
  valueButton: p.valueButton,
  linkForButton: p.linkForButton,
  files: p.files.length,
});

/** Product photos are stored here (ADR 0021 key layout). */
const PHOTO_FOLDER = 'media/products';
/** `files[3]` → 3; `files` / `files[]` come in the order sent. */
const FILE_FIELD = /^files(?:\[(\d*)\])?$/;
const FILE_SLOTS = 20;

/** The storage key an existing photo's URL names (signed or not, absolute or not). */
const keyOfUrl = (url: string): string | null => {
  let path = url.trim();
  const at = path.indexOf(MEDIA_PATH_PREFIX);
  if (at < 0) return null;
  path = (path.slice(at + MEDIA_PATH_PREFIX.length).split('?')[0] ?? '').trim();
  const key = decodeURIComponent(path);
  return isMediaKey(key) ? key : null;
};

const rule: ImageRule = { accept: 'image', folder: PHOTO_FOLDER, limitKb: 20 * 1024 };
const rules: Record<string, ImageRule> = { files: rule, 'files[]': rule };
for (let i = 0; i < FILE_SLOTS; i++) rules[`files[${i}]`] = rule;

/**
 * Reads a create or update: the store first (another tenant's is 404 before any 422), then the
 * form's rules, then the photos, measured from their stored bytes (WebP and unreadable files
 * refused). On an update, `files[n]` may also name a photo the product has by its URL (kept);
 * a product sent no `files` field at all keeps its photos, an empty `files` clears them.
 */
const read = async (
  { access, storage }: { access: StoreAccess; storage: MediaStorage },
  req: FastifyRequest,
  { fields, files }: MultipartBody,
  current?: (storeId: number) => Promise<ProductPhoto[]>,
): Promise<{ storeId: number; input: ProductInput; photos: ProductPhoto[] | undefined }> => {
  const storeId = productStoreQuery.shape.user_id.safeParse(fields.user_id);
  if (!storeId.success) throw validationError({ user_id: [ja.required(fieldLabels.user_id)] });
  const store = await access.storeFor(actorOf(req), storeId.data, 'write');
  // An unknown product (or another store's) is 404 before the form is judged.
  const had = current ? await current(store.id) : [];
  const parsed = productFormSchema.safeParse(fields);
  if (!parsed.success) throw validationError(fieldErrorsOf(parsed.error));

  type Slot = { index: number; photo: () => Promise<ProductPhoto> };
  const slots: Slot[] = [];
  let order = 1000;
  let sent = false;
  for (const [name, part] of Object.entries(files)) {
    const m = FILE_FIELD.exec(name);
    if (!m || !part) continue;
    sent = true;
    const index = m[1] ? Number(m[1]) : order++;
    slots.push({
      index,
      photo: async () => {
        if (!part.ok) throw part.error;
        const u = part.upload;
        const seen = await inspectMedia(await storage.open(u.key), u.filename);
        if (!seen.ok) throw validationError({ [`files.${index}`]: [seen.message] });
        return {
          key: u.key,
          width: seen.meta.width,
          height: seen.meta.height,
          mime: seen.contentType,
          bytes: u.size,
        };
      },
    });
  }
  for (const [name, value] of Object.entries(fields)) {
    const m = FILE_FIELD.exec(name);
    if (!m) continue;
    sent = true;
    for (const url of value.split(/\s*,\s*(?=\/|https?:)/).filter((s) => s.trim())) {
      const index = m[1] ? Number(m[1]) : order++;
      const key = keyOfUrl(url);
      const existing = had.find((p) => p.key === key);
      slots.push({
        index,
        photo: () => {
          if (!existing) throw validationError({ [`files.${index}`]: [productJa.fileNotFound] });
          return Promise.resolve(existing);
        },
      });
    }
  }
  if (slots.length > PRODUCT_MAX_FILES) throw validationError({ files: [productJa.tooManyFiles] });
  slots.sort((a, b) => a.index - b.index);
  const photos: ProductPhoto[] = [];
  for (const s of slots) photos.push(await s.photo());
  return { storeId: store.id, input: parsed.data, photos: current && !sent ? undefined : photos };
};

/** The store is checked before a file is read, when its user_id came first (issue 22). */
const early = (access: StoreAccess, req: FastifyRequest) => ({
  userId: actorOf(req).user.id,
  authorize: async (fields: Record<string, string>) => {
    const id = productStoreQuery.shape.user_id.safeParse(fields.user_id);
    if (id.success) await access.storeFor(actorOf(req), id.data, 'write');
  },
});

/**
 * The products calls of spec 2 §7 (ADR 0046): categories, a paged list (10 a page), one product,
 * create and update (multipart, photos in `files[n]`), delete. Static segments (`categories`)
 * win over `:id` in Fastify's router; /posts/:id takes numbers only and never sees `products`.
 */
export function registerProductRoutes(
  app: FastifyInstance,
  deps: {
    products: ProductsService;
    access: StoreAccess;
    storage: MediaStorage;
    /** Products made, edited and deleted are recorded as changes to the store (ADR 0047). */
    audit?: AuditLog;
    authenticate: preHandlerAsyncHookHandler;
  },
): void {
  const r = withZod(app);
  const { products, access, storage } = deps;
  const recordProduct = (
    req: FastifyRequest,
    action: 'create' | 'update' | 'delete',
    before: Product | null,
    after: Product | null,
  ) => {
    const p = (after ?? before) as Product;
    const verb = { create: '追加', update: '変更', delete: '削除' }[action];
    const entry = {
      actor: actorOf(req).user,
      entity: 'store' as const,
      entityId: p.user_id,
      storeId: p.user_id,
      summary: `商品「${p.productName}」を${verb}`,
    };
    if (action === 'update' && before && after)
      return deps.audit?.recordUpdate(entry, productFields(before), productFields(after));
    return deps.audit?.record({
      ...entry,
      action,
      before: before ? productFields(before) : null,
      after: after ? productFields(after) : null,
    });
  };
  const tags = ['products'];
  const one = { 200: ok(z.array(productSchema)) };

  r.get(
    '/posts/products/categories',
    {
      ...storeRoute(deps.authenticate, deps.access, 'read', 'query'),
      schema: {
        tags,
        summary:
          'The store\'s product categories (ids stable), oldest first, with how many products each holds. The form\'s "new category" option (id 0) is not among them.',
        querystring: productStoreQuery,
        response: { 200: ok(productCategoriesResponse) },
      },
    },
    async (req) => {
      const store = storeOf(req);
      return okData(await products.categories(store.id));
    },
  );

  r.get(
    '/posts/products',
    {
      ...storeRoute(deps.authenticate, deps.access, 'read', 'query'),
      schema: {
        tags,
        summary:
          "The store's products, newest first, paged (limit, 10 by default); category_id: one tab's",
        querystring: productListQuery,
        response: { 200: ok(productListResponse) },
      },
    },
    async (req) => {
      const q = req.query;
      const store = storeOf(req);
      return okData({ data: await products.page(store.id, q.category_id, q.page, q.limit) });
    },
  );

  r.get(
    '/posts/products/:id',
    {
      ...storeRoute(deps.authenticate, deps.access, 'read', 'query'),
      schema: {
        tags,
        summary: 'One product (data[0])',
        params: idParams,
        querystring: productStoreQuery,
        response: one,
      },
    },
    async (req) => {
      const store = storeOf(req);
      return okData([await products.one(store.id, req.params.id)]);
    },
  );

  r.delete(
    '/posts/products/:id',
    {
      ...storeRoute(deps.authenticate, deps.access, 'write', 'query'),
      schema: {
        tags,
        summary: 'Delete a product and its photos',
        params: idParams,
        querystring: productStoreQuery,
        response: one,
      },
    },
    async (req) => {
      const store = storeOf(req);
      const gone = await products.remove(store.id, req.params.id);
      await recordProduct(req, 'delete', gone, null);
      return okData([gone], productJa.deleted);
    },
  );

  registerUploadRoutes(app, (scope) => {
    const u = withZod(scope);
    u.post(
      '/posts/products',
      {
        ...multipartStoreRoute(deps.authenticate, 'write'),
        schema: {
          tags,
          summary:
            'Add a product (multipart: user_id, productName, category (a category id, or 0 for a new one named by productCategory), priceRange (0/1), productPrice or minimumPrice and maximumPrice (integer yen), productDescription, valueButton (0 none, 1 book, 2 order online, 4 learn more, 5 sign up), linkForButton (http(s), required with a button), files[n] photos (JPEG, PNG, GIF; at most 10, 20 MB each))',
          consumes: ['multipart/form-data'],
          response: one,
        },
      },
      async (req) => {
        const view = await withMultipart(
          req,
          storage,
          rules,
          async (body) => {
            const { storeId, input, photos } = await read(deps, req, body);
            return products.create(storeId, input, photos ?? []);
          },
          early(access, req),
        );
        await recordProduct(req, 'create', null, view);
        return okData([view], productJa.created);
      },
    );
    u.post(
      '/posts/products/:id',
      {
        ...multipartStoreRoute(deps.authenticate, 'write', {
          owner: 'the product is looked up by id within the named store',
        }),
        schema: {
          tags,
          summary:
            'Edit a product (multipart: the fields of POST /posts/products; files[n] are new photos or the URLs of photos it keeps; without any files field its photos stay, an empty files clears them)',
          consumes: ['multipart/form-data'],
          params: idParams,
          response: one,
        },
      },
      async (req) => {
        const id = req.params.id;
        const view = await withMultipart(
          req,
          storage,
          rules,
          async (body) => {
            const { storeId, input, photos } = await read(deps, req, body, (store) =>
              products.photos(store, id),
            );
            const before = await products.one(storeId, id);
            return { before, after: await products.update(storeId, id, input, photos) };
          },
          early(access, req),
        );
        await recordProduct(req, 'update', view.before, view.after);
        return okData([view.after], productJa.updated);
      },
    );
  });
}
