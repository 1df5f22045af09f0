import { z } from 'zod';

/** One record that uses the one asked about. */
export const ZWhereUsedRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The equipment a sample or sampling location belongs to: its page is the equipment's. */
  equipmentId: z.number().int().optional(),
});

/** The live records of one kind that use the record, by the field that names it. */
export const ZWhereUsedGroup = z.object({
  /** The declared entity's key ('products', 'productions', …). */
  entity: z.string(),
  label: z.string(),
  /** The field, in words ('Actives', 'Equipment'). */
  field: z.string(),
  records: z.array(ZWhereUsedRecord),
  /** How many there are; `records` holds the first WHERE_USED_LIMIT of them. */
  total: z.number().int(),
});

/**
 * GET {F}/{path}/{id}/where-used: which live records name this one, grouped by kind and field.
 * Kinds the caller may not read are left out.
 */
export const ZWhereUsed = z.object({ usedBy: z.array(ZWhereUsedGroup) });

export type TWhereUsedRecord = z.infer<typeof ZWhereUsedRecord>;
export type TWhereUsedGroup = z.infer<typeof ZWhereUsedGroup>;
export type TWhereUsed = z.infer<typeof ZWhereUsed>;

export const WHERE_USED_LIMIT = 200;
