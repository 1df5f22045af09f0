import { canDo, type MyPermissions } from '#client/shared/permission-rules.ts';

/** Mails can carry reset links: only those who may modify users read them. */
export function canReadOutbox(permissions: MyPermissions): boolean {
  return canDo(permissions.plan, 'User', 'Modify');
}
