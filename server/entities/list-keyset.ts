import type { TListQuery } from '#core/schemas/common.schemas.ts';

/*
 * Keyset paging under the page-number API (issue 34; the spec's lists take pageNumber and
 * pageLimit, no cursor). A kept page also keeps the sort key of its last row; a later page,
 * asked while the list version it was read at stands, starts after that key in the sort's index
 * (20261218050100_list_sort_indexes.sql) and skips only the pages between, instead of counting
 * past every row before it. Any other page, or one after a write, is read by its offset as
 * before, so the answer is the same.
 */

/** Where a kept page ends: its last row's sort key (as text) and id. */
export interface PageEnd {
  key: string;
  id: number;
}

/** The sort a list is read in, when it is one whose key is never null and has its index. */
export interface KeysetSort {
  /** The sort key's SQL expression. */
  expr: string;
  desc: boolean;
}

const NOT_NULL_SORTS: Record<string, string> = {
  name: 'name',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

/** The sort of a list query as a keyset sort, or undefined for one read only by offset. */
export function keysetSort(
  query: Pick<TListQuery, 'sortBy' | 'sortOrder'>,
  sortable: Record<string, string>,
): KeysetSort | undefined {
  // The default order is by name; a record without one lists by id, read by offset.
  if (!query.sortBy || !sortable[query.sortBy])
    return sortable.name === 'name' ? { expr: 'lower(name)', desc: false } : undefined;
  const expr = NOT_NULL_SORTS[query.sortBy];
  if (!expr || sortable[query.sortBy] !== expr) return undefined;
  return { expr, desc: query.sortOrder === 'desc' || query.sortOrder === 'descend' };
}

/** The rows after `end` in the sort (ties by id in the sort's direction, as entity-store orders them). */
export function afterEnd(sort: KeysetSort, key: string, id: string): string {
  return `(${sort.expr}, id) ${sort.desc ? '<' : '>'} (${key}, ${id}::int)`;
}

/** How many pages back a page looks for a kept page to start after. */
export const SEEK_BACK_PAGES = 8;

/**
 * The kept page to start a page at `offset` after: of the full pages kept within
 * SEEK_BACK_PAGES before it, one of the newest list version (only a page of the version read
 * now is used, which the statement checks), the nearest of those; with the rows between its end
 * and the page. Pages are asked a few at a time (a screen and its prefetch, several users), so
 * the page just before is often still being read while the one before it is kept.
 */
export function seekStart<P extends { version: string; end?: PageEnd }>(
  offset: number,
  limit: number,
  keptAt: (offset: number) => P | undefined,
): { page: P & { end: PageEnd }; skip: number } | undefined {
  let found: { page: P & { end: PageEnd }; skip: number } | undefined;
  for (let back = 1; back <= SEEK_BACK_PAGES && offset - back * limit >= 0; back += 1) {
    const page = keptAt(offset - back * limit);
    if (!page?.end) continue;
    if (found && BigInt(page.version) <= BigInt(found.page.version)) continue;
    found = { page: page as P & { end: PageEnd }, skip: (back - 1) * limit };
  }
  return found;
}
