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
import { inBase, type Quantity } from '../verification/runs/run-plan.ts';
import { changeoverCoverage, productCover } from './changeover-coverage.ts';

/*
 * The changeover decision (issue 31): for product `from` followed by `to` on a production, the
 * limits as the MAC matrix computes them for that pair, which validated cleaning procedure
 * applies, whether a Validated study covers the changeover or it needs verification sampling
 * (Annex 15 §10.11 and §10.12), and what to sample, each sample with its limit from the engine.
 */

interface ProtocolPlan {
  productionId?: number | null;
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
  const [row] = await q.query<{ name: string; equipment_ids?: number[] }>(
    `select * from ${table} where facility_id = $1 and id = $2 and archived_at is null`,
    [facilityId, id],
  );
  return row ?? notFound(`No such ${label} in this facility`);
}

/**
 * The pair's row of the MAC matrix of the production, as GET mac-matrix/pairs answers it, and the
 * compiled limits it was computed from (a location's own swab limit is worked out on them).
 */
async function pairLimits(
  q: Queryable,
  facilityId: number,
  productionId: number,
  from: string,
  to: string,
): Promise<{ pair: TMacPair; m: CompiledLimits | null }> {
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
  return { pair, m: source.compiled() };
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
  productionId: number,
  equipmentIds: readonly number[],
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
    const onItems =
      content.productionId === productionId ||
      (content.equipmentIds ?? []).some((e) => equipmentIds.includes(e));
    if (onItems) return content;
  }
  return null;
}

/**
 * The pair's limit for a sample of this type, in the unit the engine gives it. A swab at a
 * location with a swab area of its own (the location's, else its sampling type's) covers that
 * area, not the facility's swab: its limit is the pair's surface limit × that area × the swab's
 * recovery, under the policy's ceilings, as the engine computes the pair's (LeBlanc L4a, matrix.ts
 * swabLimitAt), so a location swabbed over 100 cm² is not judged against a 25 cm² swab's limit.
 */
function sampleLimit(
  pair: TMacPair,
  m: CompiledLimits | null,
  sampleType: TSampleType,
  swabArea: Quantity,
) {
  if (sampleType !== 'swab') return pair.rinseLimit ?? null;
  const areaSqcm = inBase(swabArea, 'area');
  if (!m || !pair.sal || areaSqcm === null || !(areaSqcm > 0)) return pair.swabLimit ?? null;
  const own = swabLimitAt({ ...m, swabAreaSqcm: areaSqcm }, pair.sal.value, {
    value: Number.NaN,
    rule: CALCULATED,
  });
  return Number.isFinite(own.value) ? { value: own.value, unit: 'mg/swab' } : null;
}

/** What to sample: the protocol's plan on the production's items, else their locations. */
async function samplingPlanOf(
  q: Queryable,
  facilityId: number,
  equipmentIds: readonly number[],
  protocol: ProtocolPlan | null,
  { pair, m }: { pair: TMacPair; m: CompiledLimits | null },
) {
  // The swab area of each location as its run's plan reads it (run-plan.ts locationFacts).
  const locations = await q.query<{ id: number; sample_type: TSampleType; swab_area: Quantity }>(
    `select l.id, l.sample_type, coalesce(l.swab_area, t.swab_area) as swab_area
       from sampling_locations l left join sampling_types t on t.id = l.sampling_type_id
      where l.facility_id = $1 and l.equipment_id = any($2::int[]) and l.archived_at is null
      order by l.equipment_id, l.id`,
    [facilityId, [...equipmentIds]],
  );
  const areaOf = new Map(locations.map((l) => [l.id, l.swab_area]));
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
  return rows.map((r) => ({
    samplingLocationId: r.samplingLocationId,
    sampleType: r.sampleType,
    analyticalMethodId: r.analyticalMethodId,
    limit: sampleLimit(pair, m, r.sampleType, areaOf.get(r.samplingLocationId) ?? null),
  }));
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
  const limits = campaign
    ? { pair: CAMPAIGN, m: null }
    : await pairLimits(q, facilityId, query.production, from.name, to.name);
  const { pair } = limits;
  const coverage = await changeoverCoverage(q, facilityId, equipmentIds, query.from, now);
  const protocol = await protocolOf(
    q,
    facilityId,
    coverage.studies.map((s) => s.id),
    query.production,
    equipmentIds,
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
