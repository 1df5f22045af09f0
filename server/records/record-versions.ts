import type {
  TControlledDocumentType,
  TRecordStatus,
  TSignatureState,
} from '#core/schemas/signatures.schemas.ts';
import type { TRecordVersion } from '#core/schemas/versions.schemas.ts';
import type { Queryable } from '../db/db.ts';

/** Which record's versions: its table, facility and key. */
export interface VersionRef {
  table: string;
  facilityId: number;
  recordId: number;
  /** A plan's records are found by the plan_id they held (`facilityId` then holds the plan's id). */
  ownedBy?: 'facility_id' | 'plan_id';
  /** The document type of a controlled record: each version then names its controlled version. */
  documentType?: TControlledDocumentType;
}

/**
 * The controlled version a kept row belongs to: the latest one created before the row was kept
 * (an edit of an approved record creates the next in the edit's own transaction), or the first
 * for a row kept before the record had any; with that version's status and signature state.
 */
const CONTROLLED_JOIN = `left join lateral (
    select c.version_number, c.status, c.signature_state from controlled_versions c
     where c.facility_id = $2 and c.document_type = $4 and c.document_id = $3
     order by case when c.created_at <= v.recorded_at then c.version_number
                   else -c.version_number end desc
     limit 1) cv on true`;

/**
 * The kept versions of a record, oldest first (none for a record that never existed). `valuesOf` turns each version's row (a row of the
 * record's own table type, so numbers, arrays and times come back typed as a live read gives
 * them) into the record's fields, the way the record's own read does.
 */
export async function recordVersions(
  q: Queryable,
  ref: VersionRef,
  valuesOf: (row: Record<string, unknown>) => Record<string, unknown>,
): Promise<TRecordVersion[]> {
  // The table name is one of the server's own (a declaration or a module's constant), never input.
  const rows = await q.query<Record<string, unknown>>(
    `select v.version as kept_version, v.recorded_by as kept_by,
            to_char(v.recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as kept_at,
            nullif(trim(u.first_name || ' ' || u.last_name), '') as kept_by_name,
            v.row_data->>'archived_at' is not null as kept_archived,
            ${ref.documentType ? 'cv.version_number as kept_version_number, cv.status as kept_status, cv.signature_state as kept_signature_state,' : ''}
            r.*
       from record_versions v
       cross join lateral jsonb_populate_record(null::${ref.table}, v.row_data) r
       left join users u on u.id = v.recorded_by
       ${ref.documentType ? CONTROLLED_JOIN : ''}
      where v.table_name = $1 and ${ref.ownedBy === 'plan_id' ? `(v.row_data->>'plan_id')::int` : 'v.facility_id'} = $2
        and v.record_id = $3
      order by v.recorded_at, v.id`,
    [ref.table, ref.facilityId, ref.recordId, ...(ref.documentType ? [ref.documentType] : [])],
  );
  return rows.map((row) => ({
    version: Number(row.kept_version),
    // Microseconds kept: a recordedAt sent back as asOf finds this very version.
    recordedAt: String(row.kept_at),
    recordedBy:
      row.kept_by === null
        ? null
        : { id: Number(row.kept_by), name: (row.kept_by_name as string | null) ?? '' },
    archived: row.kept_archived === true,
    ...(ref.documentType && row.kept_version_number !== null
      ? {
          versionNumber: Number(row.kept_version_number),
          status: row.kept_status as TRecordStatus,
          signatureState: row.kept_signature_state as TSignatureState | null,
        }
      : {}),
    values: valuesOf(row),
  }));
}
