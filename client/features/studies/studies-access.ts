import type { TMyPermissions } from '../../../core/schemas/roles.schemas.ts';

/** core/verification/README.md: QualificationTask guards protocols, studies and runs. */
export function canSeeStudies(permissions: TMyPermissions): boolean {
  return permissions.facility.QualificationTask?.Get === true;
}
