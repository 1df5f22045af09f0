import { z } from 'zod';
import { ZControlledReadQuery } from '#core/schemas/versions.schemas.ts';
import { RESIDUE_TYPES } from '#core/limits/policy.ts';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import {
  ZCleaningLimitPolicyRequest,
  ZCleaningLimitPolicyResponse,
} from '#core/schemas/policy.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf } from '#server/http/session-guard.ts';
import { getPolicy, policyRecordOf, updatePolicy } from './policies.service.ts';
import { readerOf } from './policy-documents.ts';
import { registerPolicyDocumentTypes } from './policy-approval.ts';

const base = '/api/v2/plans/:plan/facilities/:facility';

export function registerPolicyRoutes({ app, db, config, permit }: AppContext): void {
  registerPolicyDocumentTypes();
  const r = typed(app);
  // A plain read carries the policy's integrity (record-integrity.ts).
  const readAs = readerOf({ app, config });
  const tags = ['cleaning limit policies'];

  r.get(
    `${base}/cleaning_limit_policies`,
    {
      preHandler: permit('CleaningPolicy', 'Get'),
      schema: {
        tags,
        summary:
          "The facility's cleaning limit policy for each residue type: the version in force, or the draft with version=draft",
        params: ZFacilityParams,
        querystring: ZControlledReadQuery,
        response: { 200: z.object({ policies: z.array(ZCleaningLimitPolicyResponse) }) },
      },
    },
    async (request) => {
      const read = await readAs(request.query);
      return {
        policies: await Promise.all(
          RESIDUE_TYPES.map((t) => getPolicy(db, request.params.facility, t, read)),
        ),
      };
    },
  );

  r.get(
    `${base}/cleaning_limit_policies/:id`,
    {
      preHandler: permit('CleaningPolicy', 'Get'),
      schema: {
        tags,
        summary:
          'One cleaning limit policy, by id or by residue type (Chemical, Detergent, Intermediate, Nitrosamine)',
        description:
          'A controlled record (document type CleaningLimitPolicy, documentId `id`): the version in force (the approved one, which the limits use) with its `status`, `signatureState` and `versionNumber`; `version=draft` answers the latest version instead (being built, reviewed or approved; the one in force when none is in progress), which an edit changes. Both say `inForceVersionNumber` and `draftVersionNumber`. `asOf` (ISO date-time) answers with the versions as they were at that moment.',
        params: ZFacilityParams.extend({ id: z.string().max(40) }),
        querystring: ZControlledReadQuery,
        response: { 200: ZCleaningLimitPolicyResponse },
      },
    },
    async (request) =>
      getPolicy(
        db,
        request.params.facility,
        (await policyRecordOf(db, request.params.facility, request.params.id)).residueType,
        await readAs(request.query),
      ),
  );

  r.post(
    `${base}/cleaning_limit_policies`,
    {
      preHandler: permit('CleaningPolicy', 'Modify'),
      schema: {
        tags,
        summary: 'Change the cleaning limit policy of a residue type, with a reason',
        description:
          'Send the residue type, the fields that change, the `version` it was made from and a reason. An edit of the approved version starts the next version in Being Built (the approved one stays in force until the new one is approved through POST signatures); a version under review or approval is locked (409 TransactionLocked). The answer carries the whole policy, the safety factor applied (fixed at 1000 for Intermediate), the modification factor and the version state.',
        params: ZFacilityParams,
        body: ZCleaningLimitPolicyRequest,
        response: { 200: ZCleaningLimitPolicyResponse },
      },
    },
    async (request) => {
      const { residueType, reason, version, ...edit } = request.body;
      return updatePolicy(
        db,
        actorOf(request),
        { planId: request.params.plan, facilityId: request.params.facility },
        residueType,
        edit as Parameters<typeof updatePolicy>[4],
        { reason, version },
      );
    },
  );

  r.get(
    `${base}/intermediate-cleaning-limit-policies`,
    {
      preHandler: permit('CleaningPolicy', 'Get'),
      schema: {
        tags,
        summary:
          'The Intermediate cleaning limit policy (safety factor fixed at 1000, activesArl in ppm)',
        params: ZFacilityParams,
        querystring: ZControlledReadQuery,
        response: { 200: z.object({ policy: ZCleaningLimitPolicyResponse }) },
      },
    },
    async (request) => ({
      policy: await getPolicy(
        db,
        request.params.facility,
        'Intermediate',
        await readAs(request.query),
      ),
    }),
  );

  r.post(
    `${base}/intermediate-cleaning-limit-policies`,
    {
      preHandler: permit('CleaningPolicy', 'Modify'),
      schema: {
        tags,
        summary: 'Change the Intermediate cleaning limit policy, with a reason',
        params: ZFacilityParams,
        body: ZCleaningLimitPolicyRequest.omit({ residueType: true }),
        response: { 200: z.object({ policy: ZCleaningLimitPolicyResponse }) },
      },
    },
    async (request) => {
      const { reason, version, ...edit } = request.body;
      const policy = await updatePolicy(
        db,
        actorOf(request),
        { planId: request.params.plan, facilityId: request.params.facility },
        'Intermediate',
        edit as Parameters<typeof updatePolicy>[4],
        { reason, version },
      );
      return { policy };
    },
  );
}
