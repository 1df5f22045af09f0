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

/**
 * A read of a controlled record: the plain read answers the version in force (the approved one,
 * which runs and limits enforce); `version=draft` answers the latest version, the one an edit
 * changes (the version in force when none is in progress). With `asOf`, as they were then.
 */
export const ZControlledReadQuery = ZAsOfQuery.extend({
  version: z
    .enum(['draft'])
    .optional()
    .describe('draft: the version being built, reviewed or approved, where there is one'),
});
export type TControlledReadQuery = z.infer<typeof ZControlledReadQuery>;

/** Which versions of a controlled record exist besides the one read, so a screen can label it. */
export const ZVersionsInForce = z.object({
  inForceVersionNumber: z
    .number()
    .int()
    .nullable()
    .describe('The version in force (approved); null before the first approval'),
  draftVersionNumber: z
    .number()
    .int()
    .nullable()
    .describe('A later version being built, reviewed or approved, not in force; null when none'),
});
