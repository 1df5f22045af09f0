import { z } from 'zod';

/** A production's product-contact surface area (GET {F}/productions/{id}/surface-area). */
const ZArea = z.object({ value: z.number(), unit: z.string() });

export const ZSurfaceAreaLine = z.object({
  equipmentId: z.number().int(),
  name: z.string(),
  externalId: z.string().nullable(),
  surfaceArea: ZArea.nullable().describe('The area as entered on the equipment, with its unit'),
  converted: ZArea.nullable().describe('The area in the facility’s default surface-area unit'),
  status: z
    .enum(['counted', 'missing', 'archived'])
    .describe('missing: no surface area, so the total is incomplete; archived: not counted'),
});

/**
 * The product-contact area of a set of equipment (a production's, a train's): the sum of the
 * items' areas, each converted exactly into the facility's default unit, with its breakdown.
 */
export const ZTrainSharedArea = z.object({
  unit: z.string().describe('The facility’s default surface-area unit'),
  total: ZArea,
  isComplete: z
    .boolean()
    .describe('False when an item has no surface area or no equipment is mapped'),
  missing: z.array(z.string()).describe('Names of mapped equipment without a surface area'),
  equipment: z.array(ZSurfaceAreaLine),
  derivation: z.string(),
});
export type TTrainSharedArea = z.infer<typeof ZTrainSharedArea>;

export const ZProductionSurfaceArea = ZTrainSharedArea.extend({
  productionId: z.number().int(),
  name: z.string(),
});
export type TProductionSurfaceArea = z.infer<typeof ZProductionSurfaceArea>;

export const ZSurfaceAreaSummary = z.object({
  productionId: z.number().int(),
  total: ZArea,
  isComplete: z.boolean(),
  missingCount: z.number().int(),
});
export type TSurfaceAreaSummary = z.infer<typeof ZSurfaceAreaSummary>;

export const ZSurfaceAreaSummaries = z.object({
  unit: z.string(),
  data: z.array(ZSurfaceAreaSummary),
});
export type TSurfaceAreaSummaries = z.infer<typeof ZSurfaceAreaSummaries>;
