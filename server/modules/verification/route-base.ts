import { ZFacilityParams } from '../../../core/schemas/auth.schemas.ts';
import { ZId } from '../../../core/schemas/common.schemas.ts';

/** What the verification routes (studies, runs, inspections, microbial results) share. */
export const F = '/api/v2/plans/:plan/facilities/:facility';
export const TAGS = ['runs'];
/** Protocols, studies and runs are guarded by the qualification task's permissions. */
export const RESOURCE = 'QualificationTask';
export const ZIdParams = ZFacilityParams.extend({ id: ZId });
export const scopeOf = (params: { plan: number; facility: number }) => ({
  planId: params.plan,
  facilityId: params.facility,
});
