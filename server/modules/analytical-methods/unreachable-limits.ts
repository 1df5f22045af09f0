import type { LimitsInput } from '#core/limits/model.ts';
import type { TUnreachableLimit } from '#core/schemas/analytical-methods.schemas.ts';
import type { TSampleType } from '#core/schemas/verification.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import { locationFacts, methodFacts, type StudyOfRun } from '../verification/runs/run-plan.ts';
import { methodFit } from '../verification/studies/protocol-fitness.ts';
import { carbonFractionsOn } from './equipment-carbon-fraction.ts';

/*
 * Every limit an analytical method cannot show, at each sampling location whose (unarchived)
 * sample names it: the fitness rule a protocol and a run apply (protocol-fitness.ts methodFit:
 * the location's limit, recovery, and the LOQ converted as a result's is), against the
 * facility's current limits taken equipment-wise over every pair, the limit a protocol of any
 * products there can meet at most. EU GMP Annex 15 §10.11 and ICH Q2(R2): a method must be
 * sensitive enough for the limit it is used to verify.
 */

/** The facility's current limits as the study a protocol of every product would pin. */
const currentLimits = (input: LimitsInput): StudyOfRun => ({
  id: 0,
  seq: 0,
  closed_at: null,
  protocol_content: {},
  snapshot_input: input,
  product_names: [],
  // The current input names equipment by its current name, the location's.
  equipment_names: new Map(),
});

export async function unreachableLimits(
  q: Queryable,
  facilityId: number,
  methodId: number,
  input: LimitsInput,
): Promise<TUnreachableLimit[]> {
  const uses = await q.query<{ locationId: number; sampleType: TSampleType }>(
    `select distinct s.sampling_location_id as "locationId", s.sample_type as "sampleType"
       from samples s
       join sampling_locations l on l.id = s.sampling_location_id and l.archived_at is null
       join equipment e on e.id = s.equipment_id and e.archived_at is null
      where s.facility_id = $1 and s.analytical_method_id = $2 and s.archived_at is null`,
    [facilityId, methodId],
  );
  if (uses.length === 0) return [];
  const [locations, methods] = await Promise.all([
    locationFacts(
      q,
      facilityId,
      uses.map((u) => u.locationId),
    ),
    methodFacts(q, facilityId, [methodId]),
  ]);
  const method = methods.get(methodId);
  // An archived method is named by no new protocol: nothing to warn about.
  if (!method) return [];
  // A TOC method's LOQ is carbon: converted by the fraction of the actives made on the item.
  const fractions =
    method.residue_measure === 'toc'
      ? await carbonFractionsOn(
          q,
          facilityId,
          input,
          [...locations.values()].map((l) => l.equipmentName),
        )
      : new Map<string, number | null>();
  const unreachable: TUnreachableLimit[] = [];
  for (const use of uses) {
    const location = locations.get(use.locationId);
    if (!location) continue;
    const study = {
      ...currentLimits(input),
      carbon_fraction: fractions.get(location.equipmentName) ?? null,
    };
    const fit = methodFit(study, { ...location, sampleType: use.sampleType }, method);
    if (fit.problem === null || fit.limit === null) continue;
    unreachable.push({
      samplingLocationId: location.id,
      samplingLocationName: location.name,
      equipmentId: location.equipmentId,
      equipmentName: location.equipmentName,
      sampleType: use.sampleType,
      limit: fit.limit,
      unit: fit.unit as TUnreachableLimit['unit'],
      pair: fit.pair,
      reason: fit.problem,
    });
  }
  return unreachable.sort(
    (a, b) =>
      a.equipmentName.localeCompare(b.equipmentName) ||
      a.samplingLocationName.localeCompare(b.samplingLocationName) ||
      a.sampleType.localeCompare(b.sampleType),
  );
}
