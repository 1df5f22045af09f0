import { ZControlledReadQuery } from '#core/schemas/versions.schemas.ts';
import {
  ZInspectionSettingsRequest,
  ZInspectionSettingsResponse,
  ZMicrobialPolicyRequest,
  ZMicrobialPolicyResponse,
  type TInspectionSettings,
  type TMicrobialPolicy,
} from '#core/schemas/facility-rules.schemas.ts';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { microbialMethodsDef } from '#core/entities/defs/sampling.def.ts';
import { validationError } from '#core/errors/errors.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf } from '#server/http/session-guard.ts';
import type { Queryable } from '#server/db/db.ts';
import {
  getPolicyDocument,
  readerOf,
  updatePolicyDocument,
  type PolicyDocument,
} from '../policies/policy-documents.ts';

const F = '/api/v2/plans/:plan/facilities/:facility';

/** A read of a controlled rule: the latest version's content and state (policy-documents.ts). */
const stateOf = <T>({ body: _body, ...state }: PolicyDocument<T>) => state;

/** The microbial methods a policy names are live methods of the facility. */
async function checkMicrobialPolicy(q: Queryable, facilityId: number, policy: TMicrobialPolicy) {
  const ids = policy.microbialMethodIds;
  const found = await q.query<{ id: number }>(
    `select id from ${microbialMethodsDef.table} where facility_id = $1 and id = any($2::int[]) and archived_at is null`,
    [facilityId, ids],
  );
  const known = new Set(found.map((r) => r.id));
  const problems = ids
    .map((id, index) => ({ id, index }))
    .filter(({ id }) => !known.has(id))
    .map(({ index }) => ({
      property: `microbialMethodIds[${index}]`,
      constraints: { reference: 'No such microbial analytical method in this facility' },
    }));
  if (problems.length > 0) throw validationError(problems);
}

/**
 * The microbial cleaning limit policy and the cleaning inspection settings (approval policies
 * are in server/records): one controlled record each per facility, changed with a reason and a
 * version into a version being built, in force once approved (policy-documents.ts).
 */
export function registerFacilityRuleRoutes({ app, db, config, permit }: AppContext): void {
  const r = typed(app);
  // A plain read carries the rule's integrity (record-integrity.ts).
  const readAs = readerOf({ app, config });
  const scopeOf = (p: { plan: number; facility: number }) => ({
    planId: p.plan,
    facilityId: p.facility,
  });

  r.get(
    `${F}/microbial-cleaning-limit-policies`,
    {
      preHandler: permit('CleaningPolicy', 'Get'),
      schema: {
        tags: ['cleaning limit policies'],
        summary: 'The microbial cleaning limit policy (bioburden and endotoxin limits)',
        description:
          'Surface limits per room grade in CFU per contact plate and per swab (defaults from EU GMP Annex 1, table 6), the limit for ungraded equipment, the final-rinse limit in CFU/ml, the endotoxin limit in EU/ml, the alert level as a percentage of each limit, and the microbial methods used. A controlled record (document type CleaningLimitPolicy): the version in force (the approved one, which runs judge with), with its status; `version=draft` answers the latest version (being built, reviewed or approved; the one in force when none is in progress), which an edit changes. Both say `inForceVersionNumber` and `draftVersionNumber`. `asOf` (ISO date-time) answers with the versions as they were at that moment.',
        params: ZFacilityParams,
        querystring: ZControlledReadQuery,
        response: { 200: ZMicrobialPolicyResponse },
      },
    },
    async (request) => {
      const rule = await getPolicyDocument<TMicrobialPolicy>(
        db,
        request.params.facility,
        'Microbial',
        await readAs(request.query),
      );
      return { policy: rule.body, ...stateOf(rule) };
    },
  );

  r.post(
    `${F}/microbial-cleaning-limit-policies`,
    {
      preHandler: permit('CleaningPolicy', 'Modify'),
      schema: {
        tags: ['cleaning limit policies'],
        summary: 'Change the microbial cleaning limit policy, with a reason and its version',
        params: ZFacilityParams,
        body: ZMicrobialPolicyRequest,
        response: { 200: ZMicrobialPolicyResponse },
      },
    },
    async (request) => {
      const { reason, version, ...edit } = request.body;
      const facilityId = request.params.facility;
      const rule = await updatePolicyDocument<TMicrobialPolicy>(
        db,
        actorOf(request),
        scopeOf(request.params),
        'Microbial',
        {
          edit: edit as Partial<TMicrobialPolicy>,
          reason,
          version,
          domain: 'MicrobialCleaningLimitPolicy',
          prepare: async (tx, next) => {
            await checkMicrobialPolicy(tx, facilityId, next);
            return next;
          },
        },
      );
      return { policy: rule.body, ...stateOf(rule) };
    },
  );

  r.get(
    `${F}/cleaning-inspection-settings`,
    {
      preHandler: permit('CleaningPolicy', 'Get'),
      schema: {
        tags: ['cleaning inspection settings'],
        summary: 'How cleaned equipment is inspected before release',
        description:
          'Whether a visual inspection is required, the visible residue limit (about 4 ug/sqcm), the minimum light at the surface in lux, second-person verification, photo evidence, the validated dirty and clean hold times in hours, and the inspector’s checklist. A controlled record (document type CleaningInspectionSettings): the version in force (the approved one, which runs pin and enforce), with its status; `version=draft` answers the latest version (being built, reviewed or approved; the one in force when none is in progress), which an edit changes. Both say `inForceVersionNumber` and `draftVersionNumber`. `asOf` (ISO date-time) answers with the versions as they were at that moment.',
        params: ZFacilityParams,
        querystring: ZControlledReadQuery,
        response: { 200: ZInspectionSettingsResponse },
      },
    },
    async (request) => {
      const rule = await getPolicyDocument<TInspectionSettings>(
        db,
        request.params.facility,
        'InspectionSettings',
        await readAs(request.query),
      );
      return { cleaningInspectionSettings: rule.body, ...stateOf(rule) };
    },
  );

  r.post(
    `${F}/cleaning-inspection-settings`,
    {
      preHandler: permit('CleaningPolicy', 'Modify'),
      schema: {
        tags: ['cleaning inspection settings'],
        summary: 'Change the cleaning inspection settings, with a reason and their version',
        params: ZFacilityParams,
        body: ZInspectionSettingsRequest,
        response: { 200: ZInspectionSettingsResponse },
      },
    },
    async (request) => {
      const { reason, version, ...edit } = request.body;
      const rule = await updatePolicyDocument<TInspectionSettings>(
        db,
        actorOf(request),
        scopeOf(request.params),
        'InspectionSettings',
        {
          edit: edit as Partial<TInspectionSettings>,
          reason,
          version,
          domain: 'CleaningInspectionSettings',
        },
      );
      return { cleaningInspectionSettings: rule.body, ...stateOf(rule) };
    },
  );
}
