import { z } from 'zod';
import { fieldSchema } from '../entities/field.ts';
import { MAX_ID, ZReason, ZId as ZPathId } from './common.schemas.ts';
import { ZAttributeAssessment, ZRating } from './sampling-attributes.schemas.ts';

/*
 * What hangs off an item of equipment: its images, its sampling locations with their risk
 * assessment, and the samples taken at each location; and the mapping calls of equipment groups
 * and productions.
 */

const ZId = z.number().int().positive().max(MAX_ID);

export const ZEquipmentParams = z.object({
  plan: ZPathId,
  facility: ZPathId,
  id: ZPathId,
});
export const ZLocationParams = ZEquipmentParams.extend({
  locationId: ZPathId,
});
export const ZSampleParams = ZLocationParams.extend({
  sampleId: ZPathId,
});

export const ZWithReason = z.object({ reason: ZReason }).strict();

// ---------------------------------------------------------------- images

/** Images are PNG or JPEG data URLs of at most this many bytes once decoded. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const MAX_IMAGES_PER_EQUIPMENT = 20;

export const ZEquipmentImageRequest = z
  .object({
    imageData: z
      .string()
      .max(Math.ceil((MAX_IMAGE_BYTES * 4) / 3) + 100, 'The image is larger than 5 MB')
      .regex(
        /^data:image\/(png|jpeg);base64,[A-Za-z0-9+/]+={0,2}$/,
        'must be a PNG or JPEG image as a base64 data URL (data:image/png;base64,…)',
      ),
    name: z.string().trim().min(1).max(200).optional(),
    reason: ZReason,
  })
  .strict();

export const ZEquipmentImage = z.object({
  id: z.number().int(),
  equipmentId: z.number().int(),
  name: z.string().nullable(),
  mimeType: z.enum(['image/png', 'image/jpeg']),
  sizeBytes: z.number().int(),
  sha256: z.string(),
  imageData: z.string(),
  createdAt: z.string(),
  createdBy: z.number().int().nullable(),
});

// ---------------------------------------------------------------- sampling locations

export const MATERIALS = [
  'Stainless steel 316L',
  'Stainless steel 304',
  'Glass',
  'PTFE',
  'Polypropylene',
  'Other',
] as const;

const ZSurfaceArea = fieldSchema({
  name: 'swabArea',
  label: 'Swab area',
  kind: 'quantity',
  measure: 'surfaceArea',
  positive: true,
  required: true,
});

/** A location placed on a picture of its equipment: all three, or none (issue 31). */
export const ZLocationPosition = z.object({
  imageId: ZId.nullable().optional().describe('A picture of the location’s own equipment'),
  x: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .optional()
    .describe('Fraction of the width, from the left'),
  y: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .optional()
    .describe('Fraction of the height, from the top'),
});

export const ZSamplingLocationFields = z
  .object({
    name: z.string().trim().min(1, 'Name is required').max(200),
    description: z.string().trim().max(5000).nullable().optional(),
    sampleType: z.enum(['swab', 'rinse']),
    samplingTypeId: ZId.nullable().optional(),
    swabArea: ZSurfaceArea.nullable().optional(),
    material: z.enum(MATERIALS).nullable().optional(),
    ...ZLocationPosition.shape,
  })
  .strict();
export type TSamplingLocationFields = z.infer<typeof ZSamplingLocationFields>;

/** Spec §3: sampling locations are sent as `data` with the `equipmentId` and a `reason`. */
export const ZCreateSamplingLocationsRequest = z
  .object({
    // One location or a list of them; problems are reported by position (`data[1].name`).
    data: z.preprocess(
      (value) => (Array.isArray(value) ? value : [value]),
      z.array(ZSamplingLocationFields).min(1).max(100),
    ),
    equipmentId: ZId.optional(),
    reason: ZReason.optional(),
  })
  .strict();

export const ZEditSamplingLocationRequest = z
  .object({
    data: ZSamplingLocationFields.partial().optional(),
    reason: ZReason,
    version: z.number().int().min(1).optional(),
    unArchive: z.boolean().optional(),
  })
  .strict()
  .refine((b) => b.unArchive === true || (b.data !== undefined && b.version !== undefined), {
    path: ['version'],
    message: 'An edit sends data and the version it was made from',
  });

/** Scores 1 (least risk) to 5 of each factor; material and product contact follow from choices. */
export const MATERIAL_SCORES: Record<(typeof MATERIALS)[number], number> = {
  'Stainless steel 316L': 1,
  'Stainless steel 304': 1,
  Glass: 2,
  PTFE: 3,
  Polypropylene: 4,
  Other: 5,
};
export const CONTACT_SCORES = { Direct: 5, Indirect: 2, None: 1 } as const;

export const ZAssessRequest = z
  .object({
    equipmentId: ZId,
    reason: ZReason,
    version: z.number().int().min(1).optional(),
    hardToClean: z
      .number()
      .int()
      .min(1)
      .max(5)
      .optional()
      .describe('1: smooth open surface … 5: crevices, threads, dead legs'),
    inaccessibility: z
      .number()
      .int()
      .min(1)
      .max(5)
      .optional()
      .describe('1: reached and seen without tools … 5: only after dismantling, not visible'),
    material: z
      .enum(MATERIALS)
      .optional()
      .describe('Material at the location; the location’s, then the equipment’s when omitted'),
    productContact: z.enum(['Direct', 'Indirect', 'None']).optional(),
    ratings: z
      .array(ZRating)
      .max(100)
      .optional()
      .describe(
        'Where the facility has sampling-assessment attributes: one option chosen for each of them (instead of the four factors)',
      ),
    comment: z.string().trim().max(2000).optional(),
  })
  .strict();

export const ZAssessment = z.object({
  hardToClean: z.number().int(),
  inaccessibility: z.number().int(),
  material: z.enum(MATERIALS),
  materialScore: z.number().int(),
  productContact: z.enum(['Direct', 'Indirect', 'None']),
  contactScore: z.number().int(),
  comment: z.string().nullable(),
});
export type TAssessment = z.infer<typeof ZAssessment>;

export const ZSamplingLocation = z.object({
  id: z.number().int(),
  facilityId: z.number().int(),
  equipmentId: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  sampleType: z.enum(['swab', 'rinse']),
  samplingTypeId: z.number().int().nullable(),
  swabArea: z.object({ value: z.number(), unit: z.string() }).nullable(),
  material: z.enum(MATERIALS).nullable(),
  assessment: z.union([ZAssessment, ZAttributeAssessment]).nullable(),
  riskScore: z.number().int().nullable(),
  riskLevel: z.enum(['Low', 'Medium', 'High']).nullable(),
  assessedAt: z.string().nullable(),
  imageId: z.number().int().nullable(),
  x: z.number().nullable(),
  y: z.number().nullable(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  archivedAt: z.string().nullable(),
  archiveReason: z.string().nullable(),
});

export const ZArchivedQuery = z.object({
  archived: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});

// ---------------------------------------------------------------- samples

export const ANALYTICAL_TESTS = [
  'TOC',
  'pH',
  'Conductivity',
  'AA',
  'Odour',
  'RC',
  'Microbial',
] as const;

export const ZSampleFields = z
  .object({
    name: z.string().trim().min(1, 'Name is required').max(200),
    sampleType: z.enum(['swab', 'rinse']),
    analyticalTest: z.enum(ANALYTICAL_TESTS).nullable().optional(),
    analyticalMethodId: ZId.nullable().optional(),
    microbialMethodId: ZId.nullable().optional(),
    swabArea: ZSurfaceArea.nullable().optional(),
    rinseVolume: fieldSchema({
      name: 'rinseVolume',
      label: 'Rinse volume',
      kind: 'quantity',
      measure: 'volume',
      positive: true,
    }),
    batchNumber: z.string().trim().min(1).max(100).nullable().optional(),
    description: z.string().trim().max(5000).nullable().optional(),
  })
  .strict();
export type TSampleFields = z.infer<typeof ZSampleFields>;

export const ZCreateSampleRequest = ZSampleFields.extend({ reason: ZReason.optional() }).strict();

/** An edit (fields, version, reason), or an archive or unarchive with a reason (spec §7). */
export const ZEditSampleRequest = ZSampleFields.partial()
  .extend({
    reason: ZReason,
    version: z.number().int().min(1).optional(),
    archive: z.boolean().optional(),
    unArchive: z.boolean().optional(),
  })
  .strict()
  .refine((b) => b.archive === true || b.unArchive === true || b.version !== undefined, {
    path: ['version'],
    message: 'The version the edit was made from is required',
  })
  .refine((b) => !(b.archive === true && b.unArchive === true), {
    path: ['unArchive'],
    message: 'archive and unArchive exclude each other',
  });

export const ZSample = z.object({
  id: z.number().int(),
  facilityId: z.number().int(),
  equipmentId: z.number().int(),
  samplingLocationId: z.number().int(),
  name: z.string(),
  sampleType: z.enum(['swab', 'rinse']),
  analyticalTest: z.enum(ANALYTICAL_TESTS).nullable(),
  analyticalMethodId: z.number().int().nullable(),
  microbialMethodId: z.number().int().nullable(),
  swabArea: z.object({ value: z.number(), unit: z.string() }).nullable(),
  rinseVolume: z.object({ value: z.number(), unit: z.string() }).nullable(),
  batchNumber: z.string().nullable(),
  description: z.string().nullable(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  archivedAt: z.string().nullable(),
  archiveReason: z.string().nullable(),
});

// ---------------------------------------------------------------- mappings

export const ZGroupMapRequest = z
  .object({
    equipmentIds: z.array(ZId).max(10_000),
    reason: ZReason,
    version: z.number().int().min(1),
  })
  .strict();
export const ZGroupMap = z.object({
  groupId: z.number().int(),
  equipmentIds: z.array(z.number().int()),
  version: z.number().int(),
});

export const ZProductionMapRequest = z
  .object({
    equipmentIds: z.array(ZId).max(10_000).optional(),
    productIds: z.array(ZId).max(10_000).optional(),
    reason: ZReason,
    version: z.number().int().min(1),
  })
  .strict();
export const ZProductionMap = z.object({
  productionId: z.number().int(),
  equipmentIds: z.array(z.number().int()),
  productIds: z.array(z.number().int()),
  version: z.number().int(),
});

export const ZProductionDropdownItem = z.object({
  id: z.number().int(),
  name: z.string(),
  externalId: z.string().nullable(),
  ungroupedEquipmentIds: z.array(z.number().int()),
});

/**
 * The risk of a sampling location, as an FMEA-style product of four 1–5 scores: how hard the
 * spot is to clean, how hard it is to reach and see, how readily its material holds residue,
 * and whether product touches it. 1 (smooth, open, stainless, no contact) to 625. From 100 a
 * location is High risk, a worst-case location sampled in every study; from 25 Medium.
 */
export function assessLocation(input: {
  hardToClean: number;
  inaccessibility: number;
  material: (typeof MATERIALS)[number];
  productContact: keyof typeof CONTACT_SCORES;
  comment?: string | undefined;
}): { assessment: TAssessment; riskScore: number; riskLevel: 'Low' | 'Medium' | 'High' } {
  const materialScore = MATERIAL_SCORES[input.material];
  const contactScore = CONTACT_SCORES[input.productContact];
  const riskScore = input.hardToClean * input.inaccessibility * materialScore * contactScore;
  return {
    assessment: {
      hardToClean: input.hardToClean,
      inaccessibility: input.inaccessibility,
      material: input.material,
      materialScore,
      productContact: input.productContact,
      contactScore,
      comment: input.comment ?? null,
    },
    riskScore,
    riskLevel: riskScore >= 100 ? 'High' : riskScore >= 25 ? 'Medium' : 'Low',
  };
}
