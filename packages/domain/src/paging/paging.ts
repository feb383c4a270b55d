import { z } from 'zod';

/** Page sizes of spec 1 §9 / spec 3 §9. */
export const PAGE_SIZE_OPTIONS = [5, 10, 25, 50] as const;
export const DEFAULT_PER_PAGE = 10;
export const AGENCY_STORES_PER_PAGE = 5;
export const MAX_PER_PAGE = 100;

export const pageQuery = (defaultPerPage: number) =>
  z.object({
    page: z.coerce.number().int().min(1).default(1),
    per_page: z.coerce.number().int().min(1).max(MAX_PER_PAGE).default(defaultPerPage),
  });

/** Paged list: `data: { data: [...], current_page, last_page, total, per_page, from, to }`. */
export const paged = <T extends z.ZodTypeAny>(item: T) =>
  z.object({
    data: z.array(item),
    current_page: z.number().int(),
    last_page: z.number().int(),
    total: z.number().int(),
    per_page: z.number().int(),
    from: z.number().int().nullable(),
    to: z.number().int().nullable(),
  });

/** Admin list: `{ data: [...], meta: { current_page, last_page, per_page, total } }`. */
export const adminList = <T extends z.ZodTypeAny>(item: T) =>
  z.object({
    data: z.array(item),
    meta: z.object({
      current_page: z.number().int(),
      last_page: z.number().int(),
      per_page: z.number().int(),
      total: z.number().int(),
    }),
  });

export type Page<T> = {
  data: T[];
  current_page: number;
  last_page: number;
  total: number;
  per_page: number;
  from: number | null;
  to: number | null;
};

/** Builds the paging numbers for a total; `from`/`to` are 1-based and null on an empty page. */
export const pageOf = <T>(rows: T[], total: number, page: number, perPage: number): Page<T> => {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const from = rows.length === 0 ? null : (page - 1) * perPage + 1;
  const to = rows.length === 0 || from === null ? null : from + rows.length - 1;
  return {
    data: rows,
    current_page: page,
    last_page: lastPage,
    total,
    per_page: perPage,
    from,
    to,
  };
};
