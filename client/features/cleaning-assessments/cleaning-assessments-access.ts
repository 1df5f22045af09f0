import type { TMyPermissions } from '#core/schemas/roles.schemas.ts';

/** Spec §6: the assessments need FacilityCleaningEvaluation Get, tasks QualificationTask Get. */
export function canSeeCleaningAssessments(permissions: TMyPermissions): boolean {
  const f = permissions.facility;
  return (
    f.FacilityCleaningEvaluation?.Get === true ||
    f.QualificationTask?.Get === true ||
    f.RiskCalculation?.Get === true
  );
}
