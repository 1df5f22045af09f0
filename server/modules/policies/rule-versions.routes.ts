import { z } from 'zod';
import { AppError } from '#core/errors/errors.ts';
import type { CleaningLimitPolicy, ResidueType } from '#core/limits/policy.ts';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import {
  INSPECTION_SETTINGS_DEFAULTS,
  MICROBIAL_POLICY_DEFAULTS,
} from '#core/schemas/facility-rules.schemas.ts';
import { ZRecordVersionsResponse } from '#core/schemas/versions.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { policyFields, policyRecordOf } from './policies.service.ts';
import { placeOf, selectRecord, type PolicyKind } from './policy-documents.ts';
import { recordVersions } from '#server/records/record-versions.ts';

const F = '/api/v2/plans/:plan/facilities/:facility';
const NOTE =
  'Each change kept as the record was after it, with when and by whom; the values have the shape of the record’s own read, without the state of its controlled versions (GET signatures and the record’s read give those). The first is the version every facility starts from.';

/**
 * The versions of the facility's rule documents that are not declared entities: the cleaning
 * limit policies, the microbial policy and the cleaning inspection settings.
 */
export function registerRuleVersionRoutes({ app, db, permit }: AppContext): void {
  const r = typed(app);
  const response = { 200: ZRecordVersionsResponse };

  r.get(
    `${F}/cleaning_limit_policies/:id/versions`,
    {
      preHandler: permit('CleaningPolicy', 'Get'),
      schema: {
        tags: ['cleaning limit policies'],
        summary: 'Every version of a cleaning limit policy (by id or residue type), oldest first',
        description: NOTE,
        params: ZFacilityParams.extend({ id: z.string().max(40) }),
        response,
      },
    },
    async (request) => {
      const facilityId = request.params.facility;
      const { id: recordId } = await policyRecordOf(db, facilityId, request.params.id);
      const ref = {
        table: 'cleaning_limit_policies',
        facilityId,
        recordId,
        documentType: 'CleaningLimitPolicy' as const,
      };
      // As the policy's read answers: the stored fields over the residue type's defaults.
      const versions = await recordVersions(db, ref, (row) => ({
        ...policyFields(
          recordId,
          row.residue_type as ResidueType,
          row.policy as CleaningLimitPolicy,
          Number(row.version),
        ),
      }));
      return { versions };
    },
  );

  const rules = [
    {
      path: 'microbial-cleaning-limit-policies',
      kind: 'Microbial',
      table: 'cleaning_limit_policies',
      key: 'policy',
      defaults: MICROBIAL_POLICY_DEFAULTS,
      title: 'the microbial cleaning limit policy',
    },
    {
      path: 'cleaning-inspection-settings',
      kind: 'InspectionSettings',
      table: 'facility_rules',
      key: 'cleaningInspectionSettings',
      defaults: INSPECTION_SETTINGS_DEFAULTS,
      title: 'the cleaning inspection settings',
    },
  ] as const;
  for (const rule of rules) {
    r.get(
      `${F}/${rule.path}/versions`,
      {
        preHandler: permit('CleaningPolicy', 'Get'),
        schema: {
          tags: ['cleaning limit policies'],
          summary: `Every version of ${rule.title}, oldest first`,
          description: NOTE,
          params: ZFacilityParams,
          response,
        },
      },
      async (request) => {
        const facilityId = request.params.facility;
        const recordId = await recordIdOf(db, facilityId, rule.kind);
        const ref = {
          table: rule.table,
          facilityId,
          recordId,
          documentType: placeOf(rule.kind).documentType,
        };
        // As the rule's read answers: the stored fields over the defaults.
        const versions = await recordVersions(db, ref, (row) => ({
          id: recordId,
          [rule.key]: { ...rule.defaults, ...((row.policy ?? row.body) as object) },
          version: Number(row.version),
        }));
        return { versions };
      },
    );
  }
}

async function recordIdOf(q: Queryable, facilityId: number, kind: PolicyKind): Promise<number> {
  const [row] = await q.query<{ id: number }>(selectRecord(placeOf(kind)), [facilityId, kind]);
  if (!row) throw new AppError('NotFoundError', `No ${kind} record in this facility`);
  return row.id;
}
