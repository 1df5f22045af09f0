import type { THbelLineage } from '#core/schemas/hbel-library.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import { tableAsOf } from '#server/entities/entity-history.ts';

/*
 * Where a linked active's PDE comes from (issue 32), read by the active's page and by the limits'
 * input (their derivations and reports): kept apart so that the limits read it without the
 * library's writes.
 */

type Mass = { value: number; unit: string };

/** HBEL-0001: how the library names a monograph. */
export const numberOf = (id: number) => `HBEL-${String(id).padStart(4, '0')}`;

interface LineageRow {
  id: number;
  hbel_monograph_id: number;
  hbel_version_number: number;
  hbel_pde: Mass | null;
  pde: Mass | null;
  pde_override: Mass | null;
  pde_override_justification: string | null;
  substance: string;
  ended_pde: Mass | null;
  ended_justification: string | null;
  ended_version_number: number | null;
  ended_signed_by: string | null;
  signature_id: number | null;
  printed_name: string | null;
  signed_at: Date | string | null;
  meaning: string | null;
}

/**
 * The lineage of the facility's linked actives (all of them when `ids` is null), as they were at
 * `asOf` when given: the entry, its version, the library's PDE, a site override with its
 * justification and its signature (who, when, meaning).
 */
export async function readLineages(
  q: Queryable,
  facilityId: number,
  ids: readonly number[] | null,
  asOf?: string,
): Promise<Map<number, THbelLineage>> {
  const actives = asOf ? tableAsOf('actives', 1, 3) : 'actives';
  const rows = await q.query<LineageRow>(
    `select actives.*, m.substance, s.id as signature_id, s.printed_name, s.signed_at, s.meaning,
            ended.*
       from ${actives} join hbel_monographs m on m.id = actives.hbel_monograph_id
       left join hbel_pde_overrides o on o.id = actives.pde_override_id
       left join signatures s on s.id = o.signature_id
       -- The last override signed against an earlier version, when none is in force now: the
       -- move to a later version ended it (hbel-change.ts).
       left join lateral (
         select e.pde as ended_pde, e.justification as ended_justification,
                e.hbel_version_number as ended_version_number, es.printed_name as ended_signed_by
           from hbel_pde_overrides e left join signatures es on es.id = e.signature_id
          where e.active_id = actives.id and e.hbel_monograph_id = actives.hbel_monograph_id
            and e.hbel_version_number < actives.hbel_version_number
            and actives.pde_override_id is null
          order by e.id desc limit 1) ended on true
      where actives.facility_id = $1 and ($2::int[] is null or actives.id = any($2::int[]))`,
    asOf ? [facilityId, ids, asOf] : [facilityId, ids],
  );
  return new Map(
    rows.map((r) => [
      r.id,
      {
        monographId: r.hbel_monograph_id!,
        number: numberOf(r.hbel_monograph_id!),
        substance: r.substance,
        versionNumber: r.hbel_version_number!,
        libraryPde: r.hbel_pde as THbelLineage['libraryPde'],
        override: r.pde_override,
        justification: r.pde_override_justification,
        pde: r.pde,
        overrideSignature:
          r.signature_id === null
            ? null
            : {
                id: r.signature_id,
                signedBy: r.printed_name!,
                signedAt: new Date(r.signed_at!).toISOString(),
                meaning: r.meaning!,
              },
        endedOverride:
          r.ended_pde === null
            ? null
            : {
                pde: r.ended_pde,
                justification: r.ended_justification ?? '',
                versionNumber: r.ended_version_number!,
                signedBy: r.ended_signed_by,
              },
      },
    ]),
  );
}
