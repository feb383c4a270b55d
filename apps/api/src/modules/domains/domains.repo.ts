import type { Db } from '../../db/kysely';

export type DomainsRepo = ReturnType<typeof createDomainsRepo>;

export function createDomainsRepo(db: Db) {
  return {
    byPrefix: (prefix: string) =>
      db
        .selectFrom('agency_domains as d')
        .innerJoin('users as a', 'a.id', 'd.agency_id')
        .select(['d.prefix', 'd.title', 'd.favicon_url', 'a.logo_url', 'a.status'])
        .where('d.prefix', '=', prefix.toLowerCase())
        .executeTakeFirst(),
  };
}
