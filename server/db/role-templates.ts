import { ROLE_TEMPLATES } from '#core/permissions/role-templates.ts';
import type { PermissionMap } from '#core/permissions/permission-map.ts';
import { writeAudit, type Actor } from './audit-write.ts';
import type { Queryable } from './db.ts';

/** The granted actions as 'Resource.Action', as a role's audit rows list them. */
export function grantedIds(map: PermissionMap): Record<string, true> {
  const granted: Record<string, true> = {};
  for (const [resource, actions] of Object.entries(map))
    for (const [action, allowed] of Object.entries(actions))
      if (allowed) granted[`${resource}.${action}`] = true;
  return granted;
}

/**
 * The template roles of a new facility (core/permissions/role-templates.ts), made where its
 * Administrator role is made (the first-start seed, a facility created by the API), each with
 * its Create audit row. A name the facility already uses is left as it is.
 * Migration 20261210110000 gives the facilities that existed before them the same roles.
 */
export async function addRoleTemplates(
  tx: Queryable,
  actor: Actor,
  scope: { planId: number; facilityId: number },
): Promise<void> {
  for (const template of ROLE_TEMPLATES) {
    const permissions = template.permissions();
    const [role] = await tx.query<{ id: number }>(
      `insert into roles (facility_id, name, permissions, created_by, updated_by)
       values ($1, $2, $3, $4, $4) on conflict (facility_id, name) do nothing returning id`,
      [scope.facilityId, template.name, JSON.stringify(permissions), actor.userId],
    );
    if (!role) continue;
    await writeAudit(tx, actor, {
      planId: scope.planId,
      facilityId: scope.facilityId,
      domain: 'UserRole',
      action: 'Create',
      entityId: role.id,
      reason: `Role template: ${template.job}`,
      newValues: { name: template.name, permissions: grantedIds(permissions) },
    });
  }
}
