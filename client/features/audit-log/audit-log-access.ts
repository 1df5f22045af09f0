import { can, type MyPermissions } from '../../app/use-my-permissions.ts';

/** AuditLog Get in any facility of the plan: the server then shows the rows it allows. */
export function canReadAuditLog(permissions: MyPermissions): boolean {
  return can(permissions.plan, 'AuditLog', 'Get');
}
