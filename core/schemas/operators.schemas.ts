import { z } from 'zod';
import { ZListQuery, ZReason, ZVersion } from './common.schemas.ts';

const ZName = z.string().trim().min(1, 'is required').max(100);

const ZOperatorFields = z.object({
  firstName: ZName,
  lastName: ZName,
  operatorId: z.string().trim().min(1, 'Please enter the Operator ID').max(100),
  departmentId: z.number().int().positive().nullish(),
});

export const ZCreateOperatorRequest = ZOperatorFields;
export type TCreateOperatorRequest = z.infer<typeof ZCreateOperatorRequest>;

export const ZUpdateOperatorRequest = ZOperatorFields.partial().extend({
  reason: ZReason,
  version: ZVersion,
});
export type TUpdateOperatorRequest = z.infer<typeof ZUpdateOperatorRequest>;

/** PUT {F}/operator/{id}: archive or restore, with a reason (spec §4). */
export const ZOperatorArchiveRequest = z
  .object({
    archive: z.boolean().optional(),
    unArchive: z.boolean().optional(),
    reason: ZReason,
  })
  .refine((body) => Boolean(body.archive) !== Boolean(body.unArchive), {
    path: ['archive'],
    message: 'Say either archive or unArchive',
  });

export const ZOperatorListQuery = ZListQuery.extend({
  archived: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
});

export const ZOperator = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  operatorId: z.string(),
  department: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  version: z.number().int(),
  archivedAt: z.string().nullable(),
  archiveReason: z.string().nullable(),
});
export type TOperator = z.infer<typeof ZOperator>;

export const ZOperatorName = z.object({
  id: z.number().int(),
  operatorId: z.string(),
  name: z.string(),
});
