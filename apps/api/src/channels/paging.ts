import { ChannelError } from './channel';

/** Posts read per call where the provider lets us choose: every list here allows 100. */
export const LIST_PAGE_SIZE = 100;
/**
 * The most pages read back to one point in time (10,000 posts at 100 a page). A page shared by
 * many busy stores is read back this far; further, the answer is "cannot tell", never "absent".
 */
export const MAX_LIST_PAGES = 100;

/** One page of a provider's newest-first list, and the cursor of the next, if there is one. */
export type ListPage<T> = { items: readonly T[]; next: string | null };

/**
 * Every item of a newest-first list made at or after `since`: pages are followed by the
 * provider's own cursor until one ends with an item older than `since` or the list ends. A list
 * longer than `maxPages` fails (transient): an unread page may hold what we look for.
 */
export async function pageBack<T>(
  read: (cursor: string | null) => Promise<ListPage<T>>,
  createdAt: (x: T) => Date | null,
  since: Date,
  maxPages = MAX_LIST_PAGES,
): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | null = null;
  for (let n = 0; n < maxPages; n += 1) {
    const page = await read(cursor);
    out.push(...page.items);
    const last = page.items[page.items.length - 1];
    const at = last === undefined ? null : createdAt(last);
    if (!page.next || (at !== null && at.getTime() < since.getTime())) return out;
    cursor = page.next;
  }
  throw new ChannelError(
    'transient',
    `more than ${String(maxPages)} pages of posts since ${since.toISOString()}: not read to the end`,
  );
}
