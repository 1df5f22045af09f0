import { z } from 'zod';

/*
 * Every version of every record is kept. `GET …/{id}/versions` lists them oldest first; `asOf`
 * on a read answers with the state the data had at that moment.
 */

export const ZRecordVersion = z.object({
  version: z.number().int().describe('The optimistic-lock counter the record had after the change'),
  recordedAt: z.string().describe('When the change was committed (database time, UTC, ISO 8601)'),
  recordedBy: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  archived: z.boolean(),
  values: z.record(z.string(), z.unknown()).describe('The record’s fields as they were'),
});
export type TRecordVersion = z.infer<typeof ZRecordVersion>;

export const ZRecordVersionsResponse = z.object({ versions: z.array(ZRecordVersion) });
export type TRecordVersionsResponse = z.infer<typeof ZRecordVersionsResponse>;

const AS_OF_FORMAT =
  'asOf must be an ISO 8601 date-time (2026-11-30T14:00:00Z) or date (2026-11-30)';

/**
 * A moment to read the data as it was: an ISO 8601 date-time with its offset, or a date, which
 * means the start of that day in UTC (as `new Date('2026-11-30')` reads it). A moment still to
 * come answers with the data as they are now: nothing is known beyond now, and no view forecasts.
 */
export const ZAsOf = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()], { error: AS_OF_FORMAT })
  .transform((value) => (value.length === 10 ? `${value}T00:00:00Z` : value))
  .describe(
    'Answer with the data as it was at this moment (ISO 8601 date-time, or a date: the start of that day in UTC)',
  );

export const ZAsOfQuery = z.object({ asOf: ZAsOf.optional() });

/**
 * `asOf` on a view that cannot read its data as it was: refused with 422 and the reason, rather
 * than as an unknown parameter, so that the caller knows the view exists but answers only now.
 */
export function ZRefusedAsOf(reason: string) {
  return z
    .unknown()
    .refine(() => false, {
      error: `This view answers only with the data as they are now: ${reason}`,
    })
    .optional()
    .describe(`Not taken: ${reason}`);
}
