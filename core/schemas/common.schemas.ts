import { z } from 'zod';

/** A reason must accompany archive, delete and edit actions (spec §5; EU GMP Annex 11 §9). */
export const ZReason = z
  .string({ error: 'A reason is required' })
  .trim()
  .min(1, 'A reason is required')
  .max(1000);

/** Lists take pageNumber (1-based), pageLimit (default 10) and search (spec §9). */
export const ZListQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).default(1),
  pageLimit: z.coerce.number().int().min(1).max(1000).default(10),
  search: z.string().trim().max(200).optional(),
  sortBy: z.string().trim().max(64).optional(),
  sortOrder: z.enum(['asc', 'desc', 'ascend', 'descend']).optional(),
});
export type TListQuery = z.infer<typeof ZListQuery>;

export function ZPage<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    total: z.number().int(),
    pageNumber: z.number().int(),
    pageLimit: z.number().int(),
  });
}

/** A page of a list as ZPage(item) checks it. */
export type TPage<T extends z.ZodType> = z.output<ReturnType<typeof ZPage<T>>>;

/** Optimistic locking: an edit names the version it was made from; a stale one gets 409. */
export const ZVersion = z.coerce.number().int().min(1);

/**
 * A record id from a path or query: a positive integer within PostgreSQL's integer range, so an
 * id such as 2^31 is refused as input rather than by the database.
 */
export const MAX_ID = 2_147_483_647;
export const ZId = z.coerce.number().int().positive().max(MAX_ID);

export const ZIdParams = z.object({ id: ZId });
