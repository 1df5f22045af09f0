import { validationError, type PropertyError } from '#core/errors/errors.ts';
import { isAllowed, type PermissionMap } from '#core/permissions/permission-map.ts';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import {
  DEFAULT_APPROVAL_STEPS,
  ZApprovalPolicyQuery,
  ZApprovalPolicyRequest,
  ZApprovalPolicyResponse,
  type TApprovalPolicyBody,
  type TApprovalStep,
  type TControlledDocumentType,
} from '#core/schemas/signatures.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf } from '#server/http/session-guard.ts';
import {
  getRule,
  updateRule,
  type RuleRef,
} from '#server/modules/facility-rules/facility-rules.service.ts';

/** A policy's own fields, as stored (facility_rules, kind ApprovalPolicy, key the type). */
interface PolicyFields {
  steps: TApprovalStep[];
  allowSelfApproval: boolean;
}

const policyRef = (documentType: TControlledDocumentType): RuleRef<PolicyFields> => ({
  kind: 'ApprovalPolicy',
  key: documentType,
  domain: 'ApprovalPolicy',
  // Every type starts with one Approver step, one signature, no self-approval.
  defaults: { steps: DEFAULT_APPROVAL_STEPS, allowSelfApproval: false },
});

/** The facility's policy for a document type (the defaults at version 0 until changed). */
export async function approvalPolicy(
  q: Queryable,
  facilityId: number,
  documentType: TControlledDocumentType,
  lock = false,
): Promise<TApprovalPolicyBody> {
  const rule = await getRule(q, facilityId, policyRef(documentType), lock);
  return {
    documentType,
    steps: [...rule.body.steps].sort((a, b) => a.order - b.order),
    allowSelfApproval: rule.body.allowSelfApproval,
    version: rule.version,
  };
}

/**
 * Signers must be able to sign: every role a step names is a role of this facility granting
 * ApprovalPolicy Sign; steps have distinct orders. Problems by property path.
 */
async function checkSteps(q: Queryable, facilityId: number, steps: TApprovalStep[]) {
  const problems: PropertyError[] = [];
  const roles = await q.query<{ id: number; name: string; permissions: PermissionMap }>(
    'select id, name, permissions from roles where facility_id = $1 and id = any($2::int[])',
    [facilityId, steps.flatMap((s) => s.roleIds)],
  );
  const byId = new Map(roles.map((r) => [r.id, r]));
  const orders = new Set<number>();
  for (const [i, step] of steps.entries()) {
    if (orders.has(step.order))
      problems.push({
        property: `steps[${i}].order`,
        constraints: { unique: `Another step has order ${step.order}` },
      });
    orders.add(step.order);
    for (const [j, id] of step.roleIds.entries()) {
      const role = byId.get(id);
      const property = `steps[${i}].roleIds[${j}]`;
      if (!role)
        problems.push({
          property,
          constraints: { reference: 'No such role in this facility' },
        });
      else if (!isAllowed(role.permissions, 'ApprovalPolicy', 'Sign'))
        problems.push({
          property,
          constraints: { sign: `Role '${role.name}' does not grant ApprovalPolicy Sign` },
        });
    }
  }
  if (!steps.some((s) => s.signerRole === 'Approver'))
    problems.push({
      property: 'steps',
      constraints: { approver: 'A policy needs an Approver step' },
    });
  if (problems.length > 0) throw validationError(problems);
}

/** `GET`/`POST {F}/approval_policies` (shared/contracts/signatures-api.md). */
export function registerApprovalPolicyRoutes({ app, db, permit }: AppContext): void {
  const r = typed(app);
  const F = '/api/v2/plans/:plan/facilities/:facility';

  r.get(
    `${F}/approval_policies`,
    {
      preHandler: permit('ApprovalPolicy', 'Get'),
      schema: {
        tags: ['approval policies'],
        summary: 'The approval policy of a document type',
        description:
          'The steps a version of a controlled record goes through after Submit, in order: each a Reviewer or Approver step, the roles whose holders may sign it (roles granting ApprovalPolicy Sign; none named means any such role) and the signatures it needs; and whether one person may sign two steps of the same version (false by default: segregation of duties, 21 CFR Part 11). Every type starts with one Approver step, one signature, at version 0.',
        params: ZFacilityParams,
        querystring: ZApprovalPolicyQuery,
        response: { 200: ZApprovalPolicyResponse },
      },
    },
    async (request) => ({
      approvalPolicy: await approvalPolicy(db, request.params.facility, request.query.documentType),
    }),
  );

  r.post(
    `${F}/approval_policies`,
    {
      preHandler: permit('ApprovalPolicy', 'Modify'),
      schema: {
        tags: ['approval policies'],
        summary: 'Change the approval policy of a document type, with a reason and its version',
        description: 'It applies to versions submitted after it.',
        params: ZFacilityParams,
        body: ZApprovalPolicyRequest,
        response: { 200: ZApprovalPolicyResponse },
      },
    },
    async (request) => {
      const { documentType, reason, version, steps, allowSelfApproval } = request.body;
      const { facility, plan } = request.params;
      const sorted = [...steps].sort((a, b) => a.order - b.order);
      await updateRule(
        db,
        actorOf(request),
        { planId: plan, facilityId: facility },
        policyRef(documentType),
        { steps: sorted, allowSelfApproval },
        { reason, version },
        (tx) => checkSteps(tx, facility, steps),
      );
      return { approvalPolicy: await approvalPolicy(db, facility, documentType) };
    },
  );
}
