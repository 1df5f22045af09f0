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

export const ZAsOfQuery = z.object({
  asOf: z.iso
    .datetime({ offset: true, error: 'asOf must be an ISO 8601 date-time' })
    .optional()
    .describe('Answer with the data as it was at this moment'),
});
