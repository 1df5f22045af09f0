import { canDo, type MyPermissions } from '#client/shared/permission-rules.ts';

/** Feedback is read by the facility's administrators: those who may modify users. */
export function canReadFeedback(permissions: MyPermissions): boolean {
  return canDo(permissions.facility, 'User', 'Modify');
}
