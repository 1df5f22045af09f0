import type { TResultUnit, TSampleType } from '#core/schemas/verification.schemas.ts';
import { tableAsOf } from '#server/entities/entity-history.ts';
import { toResultUnit } from '#core/verification/judge-result.ts';
import {
  pinnedCarbonFractions,
  residueConversion,
  type ResidueConversionInput,
  type TResidueMeasure,
} from '#core/verification/residue-measure.ts';
import { formatNumber, formatQuantity } from '#core/units/format-number.ts';
import { resultLimit } from '#core/verification/result-limit.ts';
import { sampleAmount } from '#core/assessments/impact-units.ts';
import type { LimitsInput, SamplingSpec } from '#core/limits/model.ts';
import { toBase } from '#core/units/quantity.ts';
import type { Queryable } from '#server/db/db.ts';
import { keptFacts } from './run-reads.ts';

/*
 * The study's sampling plan (from the protocol content the study pinned) joined to the
 * facility's locations, equipment and methods, and what a result at a location is judged with:
 * its limit from the study's limits snapshot, the recovery and the method's LOQ.
 */

/** The protocol content a study pinned, as far as runs read it. */
export interface PinnedProtocol {
  samplingPlan?: {
    samplingLocationId: number;
    sampleType: TSampleType;
    analyticalMethodId: number;
  }[];
  productIds?: number[];
  /** The worst-case product group: its products join productIds for the limit. */
  productGroupId?: number | null;
  microbialSampling?: { samplingLocationId: number | null }[];
  limitBasis?: string | null;
  dirtyHoldMaxHours?: number | null;
  cleanHoldMaxHours?: number | null;
  allowReleaseAtRisk?: boolean | null;
  requiredPasses?: number | null;
  cleaningProcedureId?: number | null;
}

export interface StudyOfRun {
  id: number;
  seq: number;
  protocol_content: PinnedProtocol;
  closed_at: Date | null;
  /**
   * The protocol's products and its group's, by their names in the snapshot (the engine's ids
   * there; snapshot-names.ts).
   */
  product_names: string[];
  /** Equipment id → its name in the snapshot. */
  equipment_names: Map<number, string>;
  snapshot_input: LimitsInput | null;
  /**
   * The lowest carbon fraction of the actives of the study's products (issue 32): a TOC result
   * divided by it gives the most active the carbon could be (worst case, reference §2.5). Null
   * when an active states none; absent where no result is judged.
   */
  carbon_fraction?: number | null;
}

/** A location of the facility with what judging a result there needs. */
export interface LocationFacts {
  id: number;
  name: string;
  equipmentId: number;
  equipmentName: string;
  riskScore: number | null;
  sampleType: TSampleType;
  material: string | null;
  swabAreaSqcm: number | null;
  rinseVolumeMl: number | null;
  /** The location's sampling type's swab extraction volume, ml. */
  extractionVolumeMl: number | null;
  typeRecovery: number | null;
  /** The room grade of its equipment (the microbial limits). */
  roomGrade: string | null;
}

export interface PlanRow {
  samplingLocationId: number;
  samplingLocationName: string;
  equipmentName: string;
  riskScore: number | null;
  sampleType: TSampleType;
  analyticalMethodId: number;
  analyticalMethodName: string;
  limit: number | null;
  limitUnit: TResultUnit;
  recovery: number;
  recoverySource: string;
  loq: number | null;
  lod: number | null;
  detectionUnconvertible: string | null;
  /** Why the method cannot show this location's limit; null when it can (or no limit applies). */
  methodCannotShowLimit: string | null;
  limitDerivation: string[];
}

export type Quantity = { value: number; unit: string } | null;

/** A stored area or volume in the engine's base unit (cm², ml); null when absent or unreadable. */
export function inBase(q: Quantity, kind: 'area' | 'volume'): number | null {
  if (!q || typeof q.value !== 'number') return null;
  try {
    return toBase(q, kind);
  } catch {
    return null;
  }
}

/** A location's row as the facts of locations read it. */
export interface LocationRow {
  id: number;
  name: string;
  equipment_id: number;
  equipment_name: string;
  room_grade: string | null;
  risk_score: number | null;
  sample_type: TSampleType;
  material: string | null;
  swab_area: Quantity;
  type_swab_area: Quantity;
  type_rinse_volume: Quantity;
  type_extraction_volume: Quantity;
  type_recovery: number | null;
}

/** The facility's (`facility`) locations of ids `ids` (SQL parameters), as LocationRow. */
export const locationRowsSql = (facility: string, ids: string) =>
  `select l.id, l.name, l.equipment_id, e.name as equipment_name, e.room_grade, l.risk_score,
          l.sample_type, l.material, l.swab_area, t.swab_area as type_swab_area,
          t.rinse_volume as type_rinse_volume, t.extraction_volume as type_extraction_volume,
          t.recovery_percentage as type_recovery
     from sampling_locations l
     join equipment e on e.id = l.equipment_id
     left join sampling_types t on t.id = l.sampling_type_id
    where l.facility_id = ${facility} and l.id = any(${ids}::int[])`;

/** The facility's (`facility`) methods in use of ids `ids` (SQL parameters), as MethodFacts. */
export const methodRowsSql = (facility: string, ids: string) =>
  `select id, name, version, loq, lod, recoveries, residue_measure from analytical_methods
    where facility_id = ${facility} and id = any(${ids}::int[]) and archived_at is null`;

const toLocationFacts = (r: LocationRow): LocationFacts => ({
  id: r.id,
  name: r.name,
  equipmentId: r.equipment_id,
  equipmentName: r.equipment_name,
  roomGrade: r.room_grade,
  riskScore: r.risk_score,
  sampleType: r.sample_type,
  material: r.material,
  swabAreaSqcm: inBase(r.swab_area ?? r.type_swab_area, 'area'),
  rinseVolumeMl: inBase(r.type_rinse_volume, 'volume'),
  extractionVolumeMl: inBase(r.type_extraction_volume, 'volume'),
  typeRecovery: r.type_recovery,
});

/**
 * The facility's locations by id, with their equipment and sampling type; in a write that keeps
 * its reads, those it read already (run-reads.ts), or `read` when given (the caller read them
 * with other things in one statement).
 */
export function locationFacts(
  q: Queryable,
  facilityId: number,
  ids: readonly number[],
  read?: readonly LocationRow[],
): Promise<Map<number, LocationFacts>> {
  return keptFacts(q, 'locations', ids, async (asked) => {
    const rows =
      read ?? (await q.query<LocationRow>(locationRowsSql('$1', '$2'), [facilityId, [...asked]]));
    return rows.map(toLocationFacts);
  });
}

export interface MethodFacts {
  id: number;
  name: string;
  version: number;
  loq: Quantity;
  lod?: Quantity;
  recoveries: { material: string; recoveryPercentage: number }[];
  /** What the method measures (residue-measure.ts); the active itself unless set. */
  residue_measure: TResidueMeasure;
}

/**
 * The facility's methods in use by id; in a write that keeps its reads, those it read already,
 * or `read` when given.
 */
export function methodFacts(
  q: Queryable,
  facilityId: number,
  ids: readonly number[],
  read?: readonly MethodFacts[],
): Promise<Map<number, MethodFacts>> {
  return keptFacts(
    q,
    'methods',
    ids,
    async (asked) =>
      read ?? (await q.query<MethodFacts>(methodRowsSql('$1', '$2'), [facilityId, [...asked]])),
  );
}

/** The method's kept version `version`; its current row when that version was not kept. */
export async function methodAsAnalysed(
  tx: Queryable,
  facilityId: number,
  { id, version }: { id: number; version: number },
): Promise<MethodFacts | undefined> {
  const [row] = await tx.query<MethodFacts>(
    `select m.id, m.name, m.version, m.loq, m.lod, m.recoveries,
            coalesce(m.residue_measure, 'active') as residue_measure from (
       select kept.id, kept.name, kept.version, kept.loq, kept.lod, kept.recoveries,
              kept.residue_measure, 0 as rank,
              v.recorded_at as at
         from record_versions v
         cross join lateral jsonb_populate_record(null::analytical_methods, v.row_data) kept
        where v.table_name = 'analytical_methods' and v.facility_id = $1 and v.record_id = $2
          and kept.version = $3
       union all
       select id, name, version, loq, lod, recoveries, residue_measure, 1, null
         from analytical_methods
        where facility_id = $1 and id = $2
     ) m order by m.rank, m.at desc limit 1`,
    [facilityId, id, version],
  );
  return row;
}

/**
 * The lowest carbon fraction among the actives of the study's products in its snapshot (the
 * engine names actives by name); null when there is none or any of them states none, so that a
 * TOC result is never converted with a fraction that might understate the active. The fraction
 * is the one the snapshot pins; a snapshot that pins none reads the actives as they were when it
 * was taken (`snapshotAt`; now for the facility's current input), so that a later edit of an
 * active never changes the judgement against an approved snapshot (21 CFR 211.194(a): results
 * judged against the specification of their day).
 */
export async function studyCarbonFraction(
  q: Queryable,
  facilityId: number,
  input: LimitsInput,
  productNames: readonly string[],
  snapshotAt?: Date,
): Promise<number | null> {
  return (await studyCarbonFractionRead(q, facilityId, input, productNames, snapshotAt)).fraction;
}

/**
 * studyCarbonFraction, and whether it holds for good: taken from the snapshot, or from a version
 * of each active kept by `snapshotAt` (kept versions never change); a fraction read from the
 * actives as they are now, or missing an active, may differ on a later read.
 */
export async function studyCarbonFractionRead(
  q: Queryable,
  facilityId: number,
  input: LimitsInput,
  productNames: readonly string[],
  snapshotAt?: Date,
): Promise<{ fraction: number | null; kept: boolean }> {
  const names = [
    ...new Set(
      // An incomplete snapshot may lack products or actives: then no fraction is known.
      (input.products ?? [])
        .filter((p) => productNames.includes(p.id))
        .flatMap((p) => (p.actives ?? []).map((a) => a.id)),
    ),
  ];
  if (names.length === 0) return { fraction: null, kept: true };
  const pinned = pinnedCarbonFractions(input);
  const fractions = pinned
    ? names.map((name) => pinned.get(name) ?? null)
    : (
        await q.query<{ carbon_fraction: number | null }>(
          `select carbon_fraction
             from ${snapshotAt ? tableAsOf('actives', 1, 3) : 'actives'}
            where facility_id = $1 and name = any($2::text[])`,
          snapshotAt ? [facilityId, names, snapshotAt] : [facilityId, names],
        )
      ).map((r) => r.carbon_fraction);
  const kept = pinned !== null || (snapshotAt !== undefined && fractions.length === names.length);
  if (fractions.length < names.length || fractions.some((f) => f === null))
    return { fraction: null, kept };
  return { fraction: Math.min(...(fractions as number[])), kept };
}

/** The unit a plan row's limit is shown in. */
export const limitUnitOf = (sampleType: TSampleType): TResultUnit =>
  sampleType === 'swab' ? 'mg/swab' : 'mg/ml';

/** The limit at a location from the study's snapshot, in `unit`; null without a snapshot. */
export function limitAt(study: StudyOfRun, location: LocationFacts, unit: TResultUnit) {
  if (!study.snapshot_input) return { limit: null, derivation: ['No limits snapshot'] };
  return resultLimit(study.snapshot_input, {
    // By id: the name the snapshot stored, whatever the equipment is called now.
    equipmentId: study.equipment_names.get(location.equipmentId) ?? location.equipmentName,
    productIds: study.product_names,
    basis: study.protocol_content.limitBasis === 'productWise' ? 'productWise' : 'equipmentWise',
    sampleType: location.sampleType,
    swabAreaSqcm: location.swabAreaSqcm,
    rinseVolumeMl: location.rinseVolumeMl,
    unit,
  });
}

/** The source of a recovery when nothing states one (the result is not divided). */
export const NO_RECOVERY = 'no recovery applied';

/** The policy's part in a sample's recovery: its global recovery, when it is switched on. */
export interface RecoveryPolicy {
  globalRecoveryPercentage?: number | null | undefined;
  useGlobalRecoveryPercentage?: boolean | null | undefined;
}

/**
 * Recovery (README): the method's for the location's material, else the sampling type's and the
 * policy's global recovery when it is on, the lower of the two where both apply (as the limits
 * engine's sampleRecoveryFraction: a measured recovery is never replaced by a better assumed
 * one), else 100 %. A run judges with its study's snapshot policy (recoveryAt); the changeover
 * decision with the facility's policy in force (equipment-status/changeover.ts).
 */
export function recoveryOf(
  location: Pick<LocationFacts, 'material' | 'typeRecovery'>,
  method: MethodFacts | undefined,
  policy: RecoveryPolicy | undefined,
): { recovery: number; recoverySource: string } {
  const own = method?.recoveries?.find((r) => r.material === location.material);
  if (method && own && own.recoveryPercentage > 0)
    return {
      recovery: Math.min(own.recoveryPercentage, 100) / 100,
      recoverySource: `${method.name} on ${location.material}`,
    };
  const typed = location.typeRecovery && location.typeRecovery > 0 ? location.typeRecovery : null;
  const global = policy?.globalRecoveryPercentage ?? 0;
  const policyOn = policy?.useGlobalRecoveryPercentage === true && global > 0 ? global : null;
  const pct = (value: number) => `${Math.min(value, 100)} %`;
  if (typed !== null && policyOn !== null) {
    const typeIsLower = Math.min(typed, 100) <= Math.min(policyOn, 100);
    return {
      recovery: Math.min(typed, policyOn, 100) / 100,
      recoverySource: typeIsLower
        ? `sampling type, lower than the global recovery of the policy (${pct(policyOn)})`
        : `global recovery of the policy, lower than the sampling type's (${pct(typed)})`,
    };
  }
  if (typed !== null)
    return { recovery: Math.min(typed, 100) / 100, recoverySource: 'sampling type' };
  if (policyOn !== null)
    return {
      recovery: Math.min(policyOn, 100) / 100,
      recoverySource: 'global recovery of the policy',
    };
  return { recovery: 1, recoverySource: NO_RECOVERY };
}

/** The recovery a run's result at `location` is divided by, under its study's snapshot policy. */
export function recoveryAt(study: StudyOfRun, location: LocationFacts, method: MethodFacts) {
  return recoveryOf(location, method, study.snapshot_input?.policy);
}

/** What a method can see, in a result's unit (judge-result.ts `loq`, `lod`, `detectionUnconvertible`). */
export interface Detection {
  loq: number | null;
  lod: number | null;
  /** Why a stated LOQ or LOD cannot be expressed in the unit: the method cannot show a limit. */
  detectionUnconvertible: string | null;
}

/**
 * The method's LOQ and LOD in the result's unit, converted as the change impact converts an LOQ
 * (sampleAmount): per swab as stated, or a concentration in the swab's extract × the extraction
 * volume of the location's sampling type (else the snapshot's); a rinse as a concentration. A
 * stated limit that cannot be converted is never dropped: it makes the method unable to show the
 * limit (issue 26), since comparing it in a unit it was not given in could pass a result the
 * method cannot see.
 */
export function detectionIn(
  study: StudyOfRun,
  location: Pick<LocationFacts, 'sampleType' | 'rinseVolumeMl' | 'extractionVolumeMl'>,
  method: Pick<MethodFacts, 'name' | 'loq' | 'lod'>,
  unit: TResultUnit,
): Detection {
  const sampling: SamplingSpec = { ...study.snapshot_input?.sampling };
  if (location.rinseVolumeMl) sampling.rinseVolume = { value: location.rinseVolumeMl, unit: 'ml' };
  if (location.extractionVolumeMl)
    sampling.extractionVolume = { value: location.extractionVolumeMl, unit: 'ml' };
  const problems: string[] = [];
  const convert = (q: Quantity | undefined, label: 'LOQ' | 'LOD'): number | null => {
    if (!q || typeof q.value !== 'number') return null;
    try {
      const amount = sampleAmount(q, location.sampleType, sampling, method.name);
      return toResultUnit(amount, limitUnitOf(location.sampleType), unit);
    } catch {
      problems.push(
        location.sampleType === 'swab'
          ? `its ${label} of ${q.value} ${q.unit} cannot be expressed per swab: state it in mg/swab or µg/swab on the method, or give the swab's sampling type an extraction volume`
          : `its ${label} of ${q.value} ${q.unit} is not a concentration in the rinse`,
      );
      return null;
    }
  };
  const loq = convert(method.loq, 'LOQ');
  const lod = convert(method.lod ?? null, 'LOD');
  return { loq, lod, detectionUnconvertible: problems.length > 0 ? problems.join('; ') : null };
}

/**
 * Why a method with this detection cannot show `limit` (judge-result.ts's fitness rule), or null:
 * the one wording of it for the run's plan and the protocol's refusal ('TOC-1 cannot show the
 * limit: its LOQ 0.2 mg/ml ÷ 90 % = 0.2222 mg/ml is above the limit of 0.1 mg/ml').
 */
export function cannotShow(
  limit: number | null,
  unit: TResultUnit,
  recovery: number,
  detection: Detection,
  methodName = 'The method',
  residue?: ResidueConversionInput,
): string | null {
  if (limit === null || !(limit > 0)) return null;
  const why = `${methodName} cannot show the limit`;
  if (detection.detectionUnconvertible) return `${why}: ${detection.detectionUnconvertible}`;
  if (detection.loq === null) return null;
  // A TOC method's LOQ is carbon: in residue terms it is LOQ ÷ carbon fraction (issue 32).
  const conversion = residueConversion(residue ?? { measure: 'active', carbonFraction: null });
  if (!conversion.ok) return `${why}: ${conversion.why}`;
  const loq = detection.loq / conversion.factor;
  if (loq / recovery <= limit) return null;
  const n = (value: number) => formatQuantity(value, unit);
  const asResidue =
    conversion.factor === 1 ? '' : ` ÷ carbon fraction ${formatNumber(conversion.factor)}`;
  return `${why}: its LOQ ${n(detection.loq)}${asResidue} ÷ ${formatQuantity(recovery * 100, '%')} = ${n(loq / recovery)} is above the limit of ${n(limit)}`;
}

/**
 * What the method measures and the study's carbon fraction, for judging and fitness; undefined
 * where the study's actives were not read (the active itself is then assumed).
 */
export const residueOf = (
  study: StudyOfRun,
  method: Pick<MethodFacts, 'residue_measure'>,
): ResidueConversionInput | undefined =>
  study.carbon_fraction === undefined
    ? undefined
    : { measure: method.residue_measure ?? 'active', carbonFraction: study.carbon_fraction };

export async function planRows(
  q: Queryable,
  facilityId: number,
  study: StudyOfRun,
): Promise<PlanRow[]> {
  const plan = study.protocol_content.samplingPlan ?? [];
  const [locations, methods] = await Promise.all([
    locationFacts(
      q,
      facilityId,
      plan.map((p) => p.samplingLocationId),
    ),
    methodFacts(
      q,
      facilityId,
      plan.map((p) => p.analyticalMethodId),
    ),
  ]);
  return plan.flatMap((p) => {
    const location = locations.get(p.samplingLocationId);
    if (!location) return [];
    const limitUnit = limitUnitOf(p.sampleType);
    const method = methods.get(p.analyticalMethodId);
    // What the server will judge with, so that the screen's preview gives the saved answer.
    const at = { ...location, sampleType: p.sampleType };
    const limit = limitAt(study, at, limitUnit);
    const recovery = method
      ? recoveryAt(study, location, method)
      : { recovery: 1, recoverySource: NO_RECOVERY };
    const detection: Detection = method
      ? detectionIn(study, at, method, limitUnit)
      : { loq: null, lod: null, detectionUnconvertible: null };
    return [
      {
        samplingLocationId: p.samplingLocationId,
        samplingLocationName: location.name,
        equipmentName: location.equipmentName,
        riskScore: location.riskScore,
        sampleType: p.sampleType,
        analyticalMethodId: p.analyticalMethodId,
        analyticalMethodName: method?.name ?? '',
        limit: limit.limit,
        limitUnit,
        ...recovery,
        ...detection,
        methodCannotShowLimit: cannotShow(
          limit.limit,
          limitUnit,
          recovery.recovery,
          detection,
          undefined,
          method ? residueOf(study, method) : undefined,
        ),
        limitDerivation: limit.derivation,
      },
    ];
  });
}
