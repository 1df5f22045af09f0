import { z } from 'zod';
import { ZRecordStatus, ZSignatureState } from './signatures.schemas.ts';

/*
 * Every version of every record is kept. `GET …/{id}/versions` lists them oldest first; `asOf`
 * on a read answers with the state the data had at that moment.
 */

export const ZRecordVersion = z.object({
  version: z.number().int().describe('The optimistic-lock counter the record had after the change'),
  recordedAt: z.string().describe('When the change was committed (database time, UTC, ISO 8601)'),
  recordedBy: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  archived: z.boolean(),
  versionNumber: z
    .number()
    .int()
    .optional()
    .describe('A controlled record’s version (1, 2, …) this change belongs to'),
  status: ZRecordStatus.optional().describe('That controlled version’s status now'),
  signatureState: ZSignatureState.nullable()
    .optional()
    .describe('That controlled version’s signature state now'),
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
 * An answer read as of a moment before a record's history began (a record made before versions
 * were kept) says so, rather than leaving the record out or answering 404.
 */
export const ZHistoryStartsAt = z
  .string()
  .optional()
  .describe(
    'On an asOf read of a moment before the history of a record it reads began (a record made before versions were kept): that record as first kept, at this moment (UTC); the latest such moment when several',
  );

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
