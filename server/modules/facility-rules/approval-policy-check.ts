import { validationError, type PropertyError } from '../../../core/errors/errors.ts';
import { isAllowed, type PermissionMap } from '../../../core/permissions/permission-map.ts';
import type { TApprovalPolicy } from '../../../core/schemas/facility-rules.schemas.ts';
import type { Queryable } from '../../db/db.ts';

/**
 * Signers must be able to sign: every role a policy names is a role of this facility that
 * grants ApprovalPolicy Sign. Problems are reported by their property path.
 */
export async function checkApprovalPolicy(
  q: Queryable,
  facilityId: number,
  policy: TApprovalPolicy,
): Promise<void> {
  const problems: PropertyError[] = [];
  const roleIds = [...policy.reviewers.roleIds, ...policy.approvers.roleIds];
  const roles = await q.query<{ id: number; name: string; permissions: PermissionMap }>(
    'select id, name, permissions from roles where facility_id = $1 and id = any($2::int[])',
    [facilityId, roleIds],
  );
  const byId = new Map(roles.map((r) => [r.id, r]));
  for (const group of ['reviewers', 'approvers'] as const) {
    for (const [index, id] of policy[group].roleIds.entries()) {
      const role = byId.get(id);
      const property = `${group}.roleIds[${index}]`;
      if (!role)
        problems.push({
          property,
          constraints: { reference: `No role with id ${id} in this facility` },
        });
      else if (!isAllowed(role.permissions, 'ApprovalPolicy', 'Sign'))
        problems.push({
          property,
          constraints: { sign: `Role '${role.name}' does not grant ApprovalPolicy Sign` },
        });
    }
  }
  if (policy.requireReview && policy.reviewers.minimum < 1)
    problems.push({
      property: 'reviewers.minimum',
      constraints: { min: 'must be at least 1 when review is required' },
    });
  if (problems.length > 0) throw validationError(problems);
}
