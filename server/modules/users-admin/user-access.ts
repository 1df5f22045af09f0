import { validationError } from '#core/errors/errors.ts';
import type { TFacilityRoles } from '#core/schemas/users.schemas.ts';
import type { Queryable } from '#server/db/db.ts';

/**
 * Checks that every facility is in the plan and every role is an active role of its facility,
 * then returns the grants in the stable order the audit diff compares.
 */
export async function checkFacilityRoles(
  q: Queryable,
  planId: number,
  facilityRoles: readonly TFacilityRoles[],
): Promise<{ facilityId: number; roleIds: number[] }[]> {
  const seen = new Set<number>();
  const problems: { property: string; constraints: Record<string, string> }[] = [];
  const normalised: { facilityId: number; roleIds: number[] }[] = [];
  for (const [index, entry] of facilityRoles.entries()) {
    if (seen.has(entry.facilityId)) {
      problems.push({
        property: `facilityRoles[${index}].facilityId`,
        constraints: { unique: 'This facility is listed twice' },
      });
      continue;
    }
    seen.add(entry.facilityId);
    const roleIds = [...new Set(entry.roleIds)].sort((a, b) => a - b);
    const found = await q.query<{ id: number }>(
      `select r.id from roles r join facilities f on f.id = r.facility_id
        where f.plan_id = $1 and f.id = $2 and r.archived_at is null and r.id = any($3::int[])`,
      [planId, entry.facilityId, roleIds],
    );
    if (found.length !== roleIds.length) {
      problems.push({
        property: `facilityRoles[${index}].roleIds`,
        constraints: { exists: 'Choose active roles of this facility' },
      });
      continue;
    }
    normalised.push({ facilityId: entry.facilityId, roleIds });
  }
  if (problems.length > 0) throw validationError(problems);
  return normalised.sort((a, b) => a.facilityId - b.facilityId);
}

/** Replaces a user's facilities and roles with the given grants. */
export async function replaceFacilityRoles(
  q: Queryable,
  userId: number,
  grants: readonly { facilityId: number; roleIds: number[] }[],
): Promise<void> {
  await q.query('delete from user_facility_roles where user_id = $1', [userId]);
  for (const grant of grants) {
    for (const roleId of grant.roleIds) {
      await q.query(
        'insert into user_facility_roles (user_id, facility_id, role_id) values ($1, $2, $3)',
        [userId, grant.facilityId, roleId],
      );
    }
  }
}
