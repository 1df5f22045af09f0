import { analyticalMethodsDef } from '#core/entities/defs/cleaning.def.ts';
import type { SampleType } from '#core/assessments/impact-units.ts';
import { compileLimits } from '#core/limits/compile.ts';
import { limitsReport } from '#core/limits/limit-reports.ts';
import { methodLimitSide } from '#core/limits/method-limit-fit.ts';
import type { TMethodLimitFitResponse } from '#core/schemas/analytical-methods.schemas.ts';
import type { Quantity } from '#core/units/quantity.ts';
import type { Queryable } from '#server/db/db.ts';
import { getEntity } from '#server/entities/entity-store.ts';
import { computableLimitsInput } from '../limits/computable-input.ts';
import { carbonFractionsOn } from './equipment-carbon-fraction.ts';
import { readResidueMeasure } from './residue-measure.service.ts';
import { unreachableLimits } from './unreachable-limits.ts';

/**
 * The analytical method against the tightest swab and rinse limit of the equipment whose samples
 * name it: the equipment-limits report's numbers (the facility's swab and rinse sampling types),
 * so the screen shows the limit the report shows for that item; and every location's limit it
 * cannot show, by the rule protocols and runs apply (unreachable-limits.ts).
 */
export async function methodLimitFit(
  q: Queryable,
  facilityId: number,
  methodId: number,
): Promise<TMethodLimitFitResponse> {
  const method = await getEntity(q, analyticalMethodsDef, facilityId, methodId);
  const uses = await q.query<{
    equipmentId: number;
    equipmentName: string;
    sampleType: SampleType;
  }>(
    `select distinct s.equipment_id as "equipmentId", e.name as "equipmentName",
            s.sample_type as "sampleType"
       from samples s
       join sampling_locations l on l.id = s.sampling_location_id and l.archived_at is null
       join equipment e on e.id = s.equipment_id and e.archived_at is null
      where s.facility_id = $1 and s.analytical_method_id = $2 and s.archived_at is null
      order by 1, 3`,
    [facilityId, methodId],
  );
  const loq = (method.loq as Quantity<string> | undefined) ?? null;
  const base = {
    methodId,
    methodName: method.name as string,
    loq,
    isUsed: uses.length > 0,
  };
  const { input } = await computableLimitsInput(q, facilityId);
  // Without a use there is nothing to compute; the sides still say why each is empty.
  const equipment = uses.length > 0 ? limitsReport(compileLimits(input)).equipment : [];
  // What the method measures turns its LOQ into mass of active before it meets a limit.
  const { residueMeasure: measure } = await readResidueMeasure(q, facilityId, methodId);
  const fit = {
    methodName: base.methodName,
    loq,
    uses,
    equipment,
    sampling: input.sampling,
    residue: {
      measure,
      carbonFractions:
        measure === 'toc'
          ? await carbonFractionsOn(
              q,
              facilityId,
              input,
              uses.map((u) => u.equipmentName),
            )
          : new Map<string, number | null>(),
    },
  };
  return {
    ...base,
    swab: methodLimitSide(fit, 'swab'),
    rinse: methodLimitSide(fit, 'rinse'),
    unreachable: await unreachableLimits(q, facilityId, methodId, input),
  };
}
