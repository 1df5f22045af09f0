import type { TMyPermissions } from '#core/schemas/roles.schemas.ts';

/** Only holders of ApprovalPolicy Sign can be asked for a review or approval. */
export function canSign(permissions: TMyPermissions): boolean {
  return permissions.facility.ApprovalPolicy?.Sign === true;
}
