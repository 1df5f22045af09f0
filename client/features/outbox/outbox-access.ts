import { can, type MyPermissions } from '../../app/use-my-permissions.ts';

/** Mails can carry reset links: only those who may modify users read them. */
export function canReadOutbox(permissions: MyPermissions): boolean {
  return can(permissions.plan, 'User', 'Modify');
}
