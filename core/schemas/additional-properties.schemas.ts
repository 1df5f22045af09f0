import { z } from 'zod';
import { MEASURES, type MeasureName } from '../units/measures.ts';
import { ZReason, ZVersion, ZId } from './common.schemas.ts';

/** The entities a facility may give additional properties to (spec §3). */
export const PROPERTY_TARGETS = ['api', 'intermediate', 'product', 'production'] as const;
export type PropertyTarget = (typeof PROPERTY_TARGETS)[number];

export const PROPERTY_KINDS = ['text', 'number', 'quantity', 'date', 'select'] as const;
export type PropertyKind = (typeof PROPERTY_KINDS)[number];

const MEASURE_NAMES = Object.keys(MEASURES) as [MeasureName, ...MeasureName[]];

/** A key is a stable slug: values are stored under it, so it never changes once defined. */
export const ZPropertyKey = z
  .string()
  .trim()
  .min(1, 'A key is required')
  .max(60)
  .regex(
    /^[a-z][a-z0-9-]*$/,
    'must be lowercase letters, digits and hyphens, starting with a letter',
  );

const ZOptions = z
  .array(z.string().trim().min(1, 'An option cannot be empty').max(200))
  .max(200)
  .refine((options) => new Set(options.map((o) => o.toLowerCase())).size === options.length, {
    message: 'lists the same option twice',
  });

export const ZPropertyDefinition = z.object({
  key: z.string(),
  label: z.string(),
  kind: z.enum(PROPERTY_KINDS),
  measure: z.enum(MEASURE_NAMES).nullable(),
  options: z.array(z.string()),
  required: z.boolean(),
  helpText: z.string(),
  archived: z.boolean(),
  archivedAt: z.string().nullable(),
  archiveReason: z.string().nullable(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TPropertyDefinition = z.infer<typeof ZPropertyDefinition>;

export const ZPropertyTargetParams = z.object({
  plan: ZId,
  facility: ZId,
  target: z.enum(PROPERTY_TARGETS),
});
export const ZPropertyKeyParams = ZPropertyTargetParams.extend({ key: z.string().max(60) });

export const ZCreatePropertyDefinition = z
  .object({
    key: ZPropertyKey.optional(),
    label: z.string().trim().min(1, 'A label is required').max(100),
    kind: z.enum(PROPERTY_KINDS, { error: `must be one of ${PROPERTY_KINDS.join(', ')}` }),
    measure: z.enum(MEASURE_NAMES, { error: 'must be one of the measures' }).optional(),
    options: ZOptions.optional(),
    required: z.boolean().optional(),
    helpText: z.string().trim().max(500).optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.kind === 'quantity' && !body.measure)
      ctx.addIssue({ code: 'custom', path: ['measure'], message: 'A quantity needs a measure' });
    if (body.kind !== 'quantity' && body.measure)
      ctx.addIssue({ code: 'custom', path: ['measure'], message: 'Only a quantity has a measure' });
    if (body.kind === 'select' && (body.options?.length ?? 0) === 0)
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'A select needs options' });
    if (body.kind !== 'select' && body.options)
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'Only a select has options' });
  });
export type TCreatePropertyDefinition = z.infer<typeof ZCreatePropertyDefinition>;

/** Key, kind and measure stay: values already recorded were checked against them. */
export const ZEditPropertyDefinition = z
  .object({
    label: z.string().trim().min(1, 'A label is required').max(100).optional(),
    options: ZOptions.optional(),
    required: z.boolean().optional(),
    helpText: z.string().trim().max(500).optional(),
    reason: ZReason,
    version: ZVersion.optional(),
    unArchive: z.boolean().optional(),
  })
  .strict()
  .refine((body) => body.unArchive === true || body.version !== undefined, {
    path: ['version'],
    message: 'The version the edit was made from is required',
  });
export type TEditPropertyDefinition = z.infer<typeof ZEditPropertyDefinition>;

export const ZArchivePropertyDefinition = z.object({ reason: ZReason });

export const ZPropertyDefinitionsResponse = z.object({ definitions: z.array(ZPropertyDefinition) });
export const ZPropertyDefinitionResponse = z.object({ result: ZPropertyDefinition });

/** One property an active carries: built into the product, or added by the facility. */
export const ZApiProperty = z.object({
  key: z.string(),
  label: z.string(),
  kind: z.enum([...PROPERTY_KINDS, 'reference', 'boolean']),
  measure: z.string().nullable(),
  units: z.array(z.string()),
  defaultUnit: z.string().nullable(),
  options: z.array(z.string()),
  required: z.boolean(),
  helpText: z.string(),
  builtIn: z.boolean(),
});
export const ZApiPropertiesResponse = z.object({ properties: z.array(ZApiProperty) });

/** Values of additional properties in requests and responses, by key. */
export const ZPropertyValues = z.record(z.string().max(60), z.unknown());

/** A lowercase slug of a label, for a definition whose key was not given. */
export function slugOf(label: string): string {
  const slug = label
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return /^[a-z]/.test(slug) ? slug : `p-${slug}`.slice(0, 60);
}
