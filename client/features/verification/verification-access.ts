import type { TMyPermissions } from '#core/schemas/roles.schemas.ts';

/** Studies, runs and their statistics are guarded by QualificationTask (core/verification/README.md). */
export function canSeeVerification(permissions: TMyPermissions): boolean {
  return permissions.facility.QualificationTask?.Get === true;
}
