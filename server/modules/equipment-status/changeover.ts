import { AppError, validationError } from '#core/errors/errors.ts';
import type { TChangeover, TChangeoverQuery } from '#core/schemas/changeover.schemas.ts';
import { ZMacPairsQuery, type TMacPair } from '#core/schemas/mac-matrix.schemas.ts';
import type { TSampleType } from '#core/schemas/verification.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import { versionInForce } from '#server/records/controlled.ts';
import { computableLimitsInput } from '../limits/computable-input.ts';
import { swabLimitAt, CALCULATED } from '#core/limits/matrix.ts';
import type { CompiledLimits } from '#core/limits/compile.ts';
import { freshPairsSource, pagePairs } from '../limits/mac-pairs.ts';
import {
  locationFacts,
  methodFacts,
  NO_RECOVERY,
  recoveryOf,
  type RecoveryPolicy,
} from '../verification/runs/run-plan.ts';
import { changeoverCoverage, productCover } from './changeover-coverage.ts';

/*
 * The changeover decision (issue 31): for product `from` followed by `to` on a production, the
 * limits as the MAC matrix computes them for that pair, which validated cleaning procedure
 * applies, whether a Validated study covers the changeover or it needs verification sampling
 * (Annex 15 §10.11 and §10.12), and what to sample, each sample with its limit from the engine.
 */

interface ProtocolPlan {
  productionId?: number | null;
  trainId?: number | null;
  equipmentIds?: number[] | null;
  productIds?: number[] | null;
  productGroupId?: number | null;
  cleaningProcedureId?: number | null;
  samplingPlan?: {
    samplingLocationId: number;
    sampleType: TSampleType;
    analyticalMethodId: number;
  }[];
}

/** The limits of a campaign changeover: none, as the matrix has no pair of a product with itself. */
const CAMPAIGN: TMacPair = {
  previous: '',
  next: '',
  sharedEquipment: [],
  area: null,
  criteria: {},
  governing: null,
  governingActive: null,
  maco: null,
  sal: null,
  salCapped: false,
  flags: [],
};

const notFound = (what: string): never => {
  throw new AppError('NotFoundError', what);
};

async function named(q: Queryable, table: string, facilityId: number, id: number, label: string) {
  const [row] = await q.query<{ name: string; equipment_ids?: number[]; train_id?: number | null }>(
    `select * from ${table} where facility_id = $1 and id = $2 and archived_at is null`,
    [facilityId, id],
  );
  return row ?? notFound(`No such ${label} in this facility`);
}

interface PairLimits {
  pair: TMacPair;
  m: CompiledLimits | null;
  policy: RecoveryPolicy | undefined;
}

/**
 * The pair's row of the MAC matrix of the production, as GET mac-matrix/pairs answers it, and the
 * compiled limits and policy it was computed from (a location's own swab limit is worked out on
 * them).
 */
async function pairLimits(
  q: Queryable,
  facilityId: number,
  productionId: number,
  from: string,
  to: string,
): Promise<PairLimits> {
  const { input, uncomputable } = await computableLimitsInput(q, facilityId, { productionId });
  const leftOut = uncomputable.find((u) => u.kind === 'product' && (u.id === from || u.id === to));
  if (leftOut)
    throw validationError(
      [
        {
          property: leftOut.id === from ? 'from' : 'to',
          constraints: { computable: leftOut.reason },
        },
      ],
      `The limits of ${leftOut.id} cannot be computed: ${leftOut.reason}`,
    );
  const source = freshPairsSource(input);
  const page = pagePairs(source, ZMacPairsQuery.parse({ previous: from, next: to, pageLimit: 1 }));
  const pair =
    page.data[0] ??
    notFound(`${from} and ${to} are not both made on this production, or share no equipment`);
  return { pair, m: source.compiled(), policy: input.policy };
}

/**
 * The protocol to follow: the pinned protocol of the latest study covering the changeover, else
 * the approved protocol in force (the latest) that covers `from` (by name or by its product
 * group) and any of the items.
 */
async function protocolOf(
  q: Queryable,
  facilityId: number,
  studyIds: number[],
  production: { id: number; trainId: number | null; equipmentIds: readonly number[] },
  fromProductId: number,
): Promise<ProtocolPlan | null> {
  if (studyIds.length > 0) {
    const [study] = await q.query<{ protocol_content: ProtocolPlan }>(
      'select protocol_content from studies where facility_id = $1 and id = any($2::int[]) order by id desc limit 1',
      [facilityId, studyIds],
    );
    if (study) return study.protocol_content;
  }
  const cover = await productCover(q, facilityId, fromProductId);
  const candidates = await q.query<{ id: number }>(
    `select id from protocols where facility_id = $1 and archived_at is null
        and ($2 = any(product_ids) or product_group_id = any($3::int[])) order by id desc`,
    [facilityId, fromProductId, cover.groupIds],
  );
  for (const { id } of candidates) {
    const ref = { facilityId, documentType: 'Protocol' as const, documentId: id };
    const content = (await versionInForce<ProtocolPlan>(q, ref))?.content;
    if (!content || !cover.covers(content)) continue;
    // A protocol of the production's equipment train plans the same items (issue 32).
    const onItems =
      content.productionId === production.id ||
      (production.trainId !== null && content.trainId === production.trainId) ||
      (content.equipmentIds ?? []).some((e) => production.equipmentIds.includes(e));
    if (onItems) return content;
  }
  return null;
}

/**
 * The pair's limit for a sample of this type, in the unit the engine gives it, and the recovery
 * it carries. A swab covers the location's own area (the location's, else its sampling type's)
 * and is recovered as the run will divide its result (run-plan.ts recoveryOf: the method's
 * recovery on the location's material, else the sampling type's and the policy's, the lower):
 * its limit is the pair's surface limit × that area × that recovery, under the policy's ceilings
 * (LeBlanc L4a, matrix.ts swabLimitAt). So the sheet's limit is the run's limit × the recovery
 * the run applies, and a result judged on the sheet is judged as the run judges it. A rinse keeps
 * the matrix's rinse limit with the facility's rinse recovery.
 */
function sampleLimit(
  { pair, m }: PairLimits,
  sampleType: TSampleType,
  location: { swabAreaSqcm: number | null } | undefined,
  /** The recovery stated for the location; the matrix's swab recovery when null. */
  recovery: number | null,
) {
  if (sampleType !== 'swab')
    return { limit: pair.rinseLimit ?? null, recovery: m ? m.rinseRecovery : null };
  if (!m || !pair.sal) return { limit: pair.swabLimit ?? null, recovery: m?.swabRecovery ?? null };
  const area = location?.swabAreaSqcm;
  const applied = recovery ?? m.swabRecovery;
  const own = swabLimitAt(
    {
      ...m,
      swabAreaSqcm: area !== null && area !== undefined && area > 0 ? area : m.swabAreaSqcm,
      swabRecovery: applied,
    },
    pair.sal.value,
    { value: Number.NaN, rule: CALCULATED },
  );
  return {
    limit: Number.isFinite(own.value) ? { value: own.value, unit: 'mg/swab' } : null,
    recovery: applied,
  };
}

/** What to sample: the protocol's plan on the production's items, else their locations. */
async function samplingPlanOf(
  q: Queryable,
  facilityId: number,
  equipmentIds: readonly number[],
  protocol: ProtocolPlan | null,
  limits: PairLimits,
) {
  const locations = await q.query<{ id: number; sample_type: TSampleType }>(
    `select id, sample_type from sampling_locations
      where facility_id = $1 and equipment_id = any($2::int[]) and archived_at is null
      order by equipment_id, id`,
    [facilityId, [...equipmentIds]],
  );
  const onItems = new Set(locations.map((l) => l.id));
  const planned = (protocol?.samplingPlan ?? []).filter((r) => onItems.has(r.samplingLocationId));
  const rows =
    planned.length > 0
      ? planned
      : locations.map((l) => ({
          samplingLocationId: l.id,
          sampleType: l.sample_type,
          analyticalMethodId: null,
        }));
  // The facts a run's plan reads (run-plan.ts), so that the two give one limit and recovery.
  const [facts, methods] = await Promise.all([
    locationFacts(
      q,
      facilityId,
      rows.map((r) => r.samplingLocationId),
    ),
    methodFacts(
      q,
      facilityId,
      rows.flatMap((r) => (r.analyticalMethodId === null ? [] : [r.analyticalMethodId])),
    ),
  ]);
  return rows.map((r) => {
    const location = facts.get(r.samplingLocationId);
    const method = r.analyticalMethodId === null ? undefined : methods.get(r.analyticalMethodId);
    // Where neither the method, the sampling type nor the policy states one, the matrix's swab
    // recovery (the facility's sampling settings) stays: the sheet's limit is never loosened to
    // "no recovery" (100 %).
    const stated = location ? recoveryOf(location, method, limits.policy) : null;
    const own = stated && stated.recoverySource !== NO_RECOVERY ? stated : null;
    const { limit, recovery } = sampleLimit(limits, r.sampleType, location, own?.recovery ?? null);
    return {
      samplingLocationId: r.samplingLocationId,
      sampleType: r.sampleType,
      analyticalMethodId: r.analyticalMethodId,
      limit,
      recovery,
      recoverySource:
        recovery === null
          ? null
          : r.sampleType !== 'swab'
            ? "the facility's rinse recovery, as in the MAC matrix's rinse limit"
            : (own?.recoverySource ?? "the facility's swab recovery, as in the MAC matrix"),
    };
  });
}

export async function changeoverDecision(
  q: Queryable,
  facilityId: number,
  query: TChangeoverQuery,
  now: Date,
): Promise<TChangeover> {
  const from = await named(q, 'products', facilityId, query.from, 'previous product');
  const to = await named(q, 'products', facilityId, query.to, 'next product');
  const production = await named(q, 'productions', facilityId, query.production, 'production');
  const equipmentIds = production.equipment_ids ?? [];
  // A campaign (the same product again) carries nothing over into another product: no pair of
  // the matrix, no limit; whether its cleaning is covered is judged as for any changeover.
  const campaign = query.from === query.to;
  const limits: PairLimits = campaign
    ? { pair: CAMPAIGN, m: null, policy: undefined }
    : await pairLimits(q, facilityId, query.production, from.name, to.name);
  const { pair } = limits;
  const coverage = await changeoverCoverage(q, facilityId, equipmentIds, query.from, now);
  const protocol = await protocolOf(
    q,
    facilityId,
    coverage.studies.map((s) => s.id),
    { id: query.production, trainId: production.train_id ?? null, equipmentIds },
    query.from,
  );
  const reasons = [...coverage.reasons];
  if (pair.maco === null && !campaign)
    reasons.push(
      `${from.name} → ${to.name} has no limit: ${pair.flags.join('; ') || 'none computed'}`,
    );
  if (!protocol) reasons.push(`No approved protocol covers the cleaning after ${from.name}`);
  const validated = coverage.validated && (campaign || pair.maco !== null);
  return {
    limits: {
      maco: pair.maco,
      sal: pair.sal,
      swab: pair.swabLimit ?? null,
      rinse: pair.rinseLimit ?? null,
      governing: pair.governing,
      governingActive: pair.governingActive,
    },
    cleaningProcedureId: protocol?.cleaningProcedureId ?? null,
    validated,
    verificationRequired: !validated,
    reasons,
    samplingPlan: await samplingPlanOf(q, facilityId, equipmentIds, protocol, limits),
  };
}
