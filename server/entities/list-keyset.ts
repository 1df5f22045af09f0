import type { TListQuery } from '#core/schemas/common.schemas.ts';

/*
 * Keyset paging under the page-number API (issue 34; the spec's lists take pageNumber and
 * pageLimit, no cursor). A kept page also keeps the sort key of its last row; the next page,
 * asked while the list version it was read at stands, starts after that key in the sort's index
 * (20261218050100_list_sort_indexes.sql) instead of counting past every row before it. Any other
 * page, or the next one after a write, is read by its offset as before, so the answer is the same.
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
