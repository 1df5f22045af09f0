import type { SampleResult } from '#core/assessments/change-impact.ts';
import type { Queryable } from '#server/db/db.ts';

/**
 * The facility's counted sample results (issue 12) for `resultAtRisk`: not superseded by a
 * retest or reswab, with a corrected value (the raw value over the recovery, or the bound of a
 * censored one). The product cleaned before sampling is each product of the study's protocol
 * (one result per product when the study names several), on the equipment sampled; the value is
 * in the unit it was reported in.
 */
export async function impactResults(
  q: Queryable,
  facilityId: number,
  productName: ReadonlyMap<number, string>,
  equipmentName: ReadonlyMap<number, string>,
): Promise<SampleResult[]> {
  const rows = await q.query<{
    id: number;
    equipment_id: number;
    sample_type: 'swab' | 'rinse';
    unit: string;
    corrected: number;
    product_ids: number[] | null;
  }>(
    `select r.id, r.equipment_id, r.sample_type, r.unit,
            (r.judgement ->> 'correctedValue')::double precision as corrected,
            array(select jsonb_array_elements_text(
              coalesce(s.protocol_content -> 'productIds', '[]'::jsonb))::int) as product_ids
       from sample_results r
       join study_runs u on u.id = r.run_id
       join studies s on s.id = u.study_id
      where r.facility_id = $1 and r.superseded_by is null
        and r.judgement ->> 'correctedValue' is not null
      order by r.id`,
    [facilityId],
  );
  const results: SampleResult[] = [];
  for (const row of rows) {
    const equipment = equipmentName.get(row.equipment_id);
    const products = (row.product_ids ?? [])
      .map((id) => productName.get(id))
      .filter((name): name is string => name !== undefined);
    for (const previous of products) {
      results.push({
        id: products.length > 1 ? `${row.id} · ${previous}` : String(row.id),
        previous,
        ...(equipment === undefined ? {} : { equipment }),
        sampleType: row.sample_type,
        value: { value: Number(row.corrected), unit: row.unit },
      });
    }
  }
  return results;
}
