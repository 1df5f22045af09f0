import { z } from 'zod';
import { facilitiesDef, facilityGroupsDef } from '../entities/defs/facilities.def.ts';
import { createSchema, editSchema, recordSchema } from '../entities/entity.ts';
import { PRODUCT_TYPES, TIERS } from '../facilities/facility-features.ts';
import { ZReason, ZVersion } from './common.schemas.ts';

export const LICENSE_STATES = ['intimate', 'grace', 'grace-exceeded', 'genuine'] as const;
export type TLicenseState = (typeof LICENSE_STATES)[number];
/** The workflow of a genuine licence: nothing under way (spec §3). */
export const NO_WORKFLOW = 'none';

// The declared fields again, typed: recordSchema's are built from the declaration at run time.
export const ZFacilityRecord = recordSchema(facilitiesDef).extend({
  name: z.string(),
  productType: z.enum(PRODUCT_TYPES),
  tier: z.enum(TIERS),
  facilityGroupId: z.number().int(),
  facilityGroupName: z.string(),
  licenseState: z.enum(LICENSE_STATES),
  licenseWorkflow: z.string(),
});
export type TFacilityRecord = z.infer<typeof ZFacilityRecord>;

export const ZCreateFacilityRequest = createSchema(facilitiesDef);
export const ZUpdateFacilityRequest = editSchema(facilitiesDef);

export const ZFacilityGroupRecord = recordSchema(facilityGroupsDef).extend({ name: z.string() });
export type TFacilityGroupRecord = z.infer<typeof ZFacilityGroupRecord>;
export const ZCreateFacilityGroupRequest = createSchema(facilityGroupsDef);
export const ZUpdateFacilityGroupRequest = editSchema(facilityGroupsDef);

/**
 * A licence change by a system administrator. Login lists a licence only when its state is not
 * genuine and its workflow not none (spec §2, §3), so the two go together: a genuine licence has
 * no workflow, any other state names one.
 */
export const ZLicenseChangeRequest = z
  .object({
    state: z.enum(LICENSE_STATES),
    workflow: z.string().trim().min(1, 'Please enter the workflow').max(100).default(NO_WORKFLOW),
    reason: ZReason,
    version: ZVersion,
  })
  .strict()
  .superRefine((body, ctx) => {
    const isNone = body.workflow === NO_WORKFLOW;
    if (body.state === 'genuine' && !isNone)
      ctx.addIssue({
        code: 'custom',
        path: ['workflow'],
        message: 'A genuine licence has no workflow (none)',
      });
    if (body.state !== 'genuine' && isNone)
      ctx.addIssue({
        code: 'custom',
        path: ['workflow'],
        message: `A ${body.state} licence needs the workflow under way (for example renewal)`,
      });
  });
export type TLicenseChangeRequest = z.infer<typeof ZLicenseChangeRequest>;
