import { createHash } from 'node:crypto';
import type {
  AssessEvidence,
  AssessFacilityArgs,
  PriorAssessment,
  TrainWorstPick,
} from '#core/assessments/assess-facility.ts';
import {
  equipmentDef,
  equipmentGroupsDef,
  historicalStudiesDef,
  productGroupsDef,
  productionsDef,
  productsDef,
} from '#core/entities/defs/index.ts';
import type { TAssessmentResult } from '#core/schemas/cleaning-assessments.schemas.ts';
import type { TTargetOverride } from '#core/schemas/worst-products.schemas.ts';
import { convertValue } from '#core/units/quantity.ts';
import type { Unit } from '#core/units/units.ts';
import type { Queryable } from '#server/db/db.ts';
import { allEntities, type EntityRecord } from '#server/entities/entity-store.ts';
import { canonicalJson } from '#server/records/controlled.ts';
import { computableLimitsInput } from '../limits/computable-input.ts';
import { worstCaseRanking } from '../limits/limit-reports.service.ts';
import { targetOverrides } from '../limits/worst-product-overrides.ts';
import { trainWorstProducts } from '../limits/worst-products.service.ts';
import { studyNumberOf } from '../verification/studies/studies.read.ts';
import { studyCoverage } from '../verification/studies/study-coverage.ts';

/** What an assessment is computed from, read in one go: the facility's data in force now. */
export interface AssessmentData {
  args: AssessFacilityArgs;
  /** SHA-256 of the engine input's canonical JSON, as limits snapshots hash it. */
  inputHash: string;
  /** The facility's latest limits snapshot: what was in force when the assessment ran. */
  limitsSnapshotId: number | null;
  /** The signed worst-case overrides in force (issue 32), shown beside the computed ones. */
  overrides: TTargetOverride[];
}

const ids = (record: EntityRecord, field: string) => (record[field] as number[] | null) ?? [];
const named = (record: EntityRecord) => ({ id: record.id, name: record.name as string });

/** A historical study's validated surface limit in mg/sqcm; null when none was recorded. */
function limitAtStudy(record: EntityRecord): number | null {
  const q = record.surfaceLimitValidated as { value: number; unit: string } | null;
  if (!q) return null;
  try {
    return convertValue(q.value, q.unit as Unit, 'mg/sqcm');
  } catch {
    return null;
  }
}

function evidenceOf(record: EntityRecord): AssessEvidence {
  return {
    kind: 'historicalStudy',
    id: record.id,
    name: record.name as string,
    productId: record.productId as number,
    trainId: record.productionId as number,
    outcome: record.outcome as AssessEvidence['outcome'],
    limitAtStudy: limitAtStudy(record),
    date: (record.completedDate as string | null) ?? null,
  };
}

/**
 * The facility's Validated studies as evidence: each covers every product of its scope on its
 * production, as the coverage model scopes it (study-coverage.ts, which the dashboard reads
 * too). The limit it was judged against is not worked out from its snapshot here (null): a
 * tightened limit shows only against historical studies.
 */
async function studyEvidence(q: Queryable, facilityId: number): Promise<AssessEvidence[]> {
  const studies = await studyCoverage(q, facilityId);
  return studies.flatMap((study) =>
    study.outcome !== 'Validated' || study.productionId === null
      ? []
      : study.productIds.map((productId) => ({
          kind: 'study' as const,
          id: study.id,
          name: studyNumberOf(study.seq),
          productId,
          trainId: study.productionId!,
          outcome: 'Validated' as const,
          limitAtStudy: null,
          date: study.at.slice(0, 10),
        })),
  );
}

/** The completed assessment of the facility before `beforeId` (its result), or null. */
export async function priorResult(
  q: Queryable,
  facilityId: number,
  beforeId: number,
): Promise<PriorAssessment | null> {
  const [row] = await q.query<{ id: number; result: TAssessmentResult }>(
    `select id, result from cleaning_assessments
      where facility_id = $1 and id < $2 and completed_at is not null and result is not null
      order by completed_at desc, id desc limit 1`,
    [facilityId, beforeId],
  );
  return row ? { id: row.id, result: row.result } : null;
}

export async function assessmentData(
  q: Queryable,
  facilityId: number,
  assessmentId: number,
): Promise<AssessmentData> {
  const [computed, products, equipment, productions, productGroups, equipmentGroups, studies] =
    await Promise.all([
      computableLimitsInput(q, facilityId),
      allEntities(q, productsDef, facilityId),
      allEntities(q, equipmentDef, facilityId),
      allEntities(q, productionsDef, facilityId),
      allEntities(q, productGroupsDef, facilityId),
      allEntities(q, equipmentGroupsDef, facilityId),
      allEntities(q, historicalStudiesDef, facilityId),
    ]);
  const [prior, [snapshot], ranking, validated, overrides, worst] = await Promise.all([
    priorResult(q, facilityId, assessmentId),
    q.query<{ id: number }>('select max(id) as id from limits_snapshots where facility_id = $1', [
      facilityId,
    ]),
    // The facility's risk scores (its RPN formula over the products' factors), where recorded.
    worstCaseRanking(q, facilityId),
    studyEvidence(q, facilityId),
    targetOverrides(q, facilityId),
    trainWorstProducts(q, facilityId),
  ]);
  const riskScores: Record<string, number> = {};
  for (const p of ranking.products) if (p.score !== null) riskScores[p.id] = p.score;
  const { input, uncomputable } = computed;
  return {
    args: {
      input,
      uncomputable: uncomputable
        .filter((u) => u.kind === 'product')
        .map((u) => ({ name: u.id, reason: u.reason })),
      products: products.map(named),
      equipment: equipment.map(named),
      productGroups: productGroups.map((g) => ({ ...named(g), memberIds: ids(g, 'productIds') })),
      equipmentGroups: equipmentGroups.map((g) => ({
        ...named(g),
        memberIds: ids(g, 'equipmentIds'),
      })),
      trains: productions.map((p) => ({
        ...named(p),
        productIds: ids(p, 'productIds'),
        equipmentIds: ids(p, 'equipmentIds'),
      })),
      evidence: [...studies.map(evidenceOf), ...validated],
      prior,
      riskScores,
      worst: Object.fromEntries(
        worst.trains.map((w): [number, TrainWorstPick] => [
          w.productionId,
          {
            product: w.computed.product,
            attribute: w.computed.reason.attribute,
            text: w.computed.reason.text,
            worstCase: w.worstCase,
            override: !w.override
              ? null
              : w.overrideNow?.applies === false
                ? `${w.override.text}. Not applied: ${w.overrideNow.review ?? ''}`
                : w.override.text,
          },
        ]),
      ),
    },
    inputHash: createHash('sha256').update(canonicalJson(input)).digest('hex'),
    limitsSnapshotId: snapshot?.id ?? null,
    overrides,
  };
}
