import { can, type MyPermissions } from '../../app/use-my-permissions.ts';

/** Feedback is read by the facility's administrators: those who may modify users. */
export function canReadFeedback(permissions: MyPermissions): boolean {
  return can(permissions.facility, 'User', 'Modify');
}
