import type { Queryable } from '#server/db/db.ts';

/**
 * The limits snapshot a study of a protocol is judged against: the one the protocol names, else
 * the facility's latest when the study starts. One rule for starting a study and for checking a
 * protocol's methods against the limits its studies will meet.
 */
export async function studySnapshotId(
  q: Queryable,
  facilityId: number,
  named: unknown,
): Promise<number | null> {
  if (typeof named === 'number') return named;
  const [latest] = await q.query<{ id: number | null }>(
    'select max(id) as id from limits_snapshots where facility_id = $1',
    [facilityId],
  );
  return latest?.id ?? null;
}
