import { canDo, type MyPermissions } from '#client/shared/permission-rules.ts';

/** AuditLog Get in any facility of the plan: the server then shows the rows it allows. */
export function canReadAuditLog(permissions: MyPermissions): boolean {
  return canDo(permissions.plan, 'AuditLog', 'Get');
}
