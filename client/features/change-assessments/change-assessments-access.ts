import type { TMyPermissions } from '#core/schemas/roles.schemas.ts';

/** Change assessments are read with FacilityCleaningEvaluation Get (core/assessments/README.md). */
export function canSeeChangeAssessments(permissions: TMyPermissions): boolean {
  return permissions.facility.FacilityCleaningEvaluation?.Get === true;
}
