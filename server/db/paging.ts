import type { TListQuery } from '#core/schemas/common.schemas.ts';

/** LIMIT and OFFSET of a page, and the shape every list answers with. */
export function pageWindow(query: Pick<TListQuery, 'pageNumber' | 'pageLimit'>): {
  limit: number;
  offset: number;
} {
  return { limit: query.pageLimit, offset: (query.pageNumber - 1) * query.pageLimit };
}

export function pageOf<T>(
  data: T[],
  total: number,
  query: Pick<TListQuery, 'pageNumber' | 'pageLimit'>,
) {
  return { data, total, pageNumber: query.pageNumber, pageLimit: query.pageLimit };
}

/** Sorting by a column the caller names, restricted to a list the route allows. */
export function orderBy(
  query: Pick<TListQuery, 'sortBy' | 'sortOrder'>,
  allowed: Record<string, string>,
  fallback: string,
): string {
  const column = query.sortBy ? allowed[query.sortBy] : undefined;
  if (!column) return fallback;
  const direction = query.sortOrder === 'desc' || query.sortOrder === 'descend' ? 'desc' : 'asc';
  return `${column} ${direction}`;
}

/** A search term as an ILIKE pattern, with the wildcards the user typed taken literally. */
export function likePattern(search: string | undefined): string | null {
  if (!search) return null;
  return `%${search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
