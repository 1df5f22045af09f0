import {
  deriveEquipmentStatus,
  foldLogbook,
  statusAt,
  type EquipmentStatus,
  type LogbookEntryFacts,
  type LogbookFold,
  type MomentFormat,
  trainStatus,
} from '#core/equipment-status/equipment-status.ts';
import { formatDateTime } from '#core/datetime/format-date-time.ts';
import type {
  TEquipmentStatusItem,
  TLogbookEntry,
  TTrainStatus,
} from '#core/schemas/equipment-status.schemas.ts';
import { AppError } from '#core/errors/errors.ts';
import type { Queryable } from '#server/db/db.ts';
import { facilityDateTimeSettings } from '../audit/audit-log.service.ts';
import { runName } from '../verification/runs/runs.read.ts';

/** A logbook row as stored (migration 20261210120000_equipment_logbook.sql). */
export interface LogbookRow {
  id: number;
  equipment_id: number;
  event: TLogbookEntry['event'];
  occurred_at: Date | string;
  recorded_at: Date | string;
  back_dated: boolean;
  recorded_by: number;
  recorded_by_name?: string;
  /** The study's number and the run's sequence, where the entry names a run. */
  run_study_seq?: number | null;
  run_sequence?: number | null;
  product_id: number | null;
  batch: string | null;
  cleaning_procedure_id: number | null;
  run_id: number | null;
  reason: string | null;
  corrects_id: number | null;
  dirty_hold_hours: number | null;
  clean_hold_hours: number | null;
  hold_source: TLogbookEntry['holdSource'];
  released_at_risk: boolean;
  /** The Released entry's signature (logbookRows reads it from the signatures it points at). */
  signature_id?: number | null;
  signature_meaning?: string | null;
  signer_printed_name?: string | null;
  signed_content_hash?: string | null;
}

/** The facility's moments as its people read them (its zone and formats): reasons, refusals. */
export async function facilityMoments(q: Queryable, facilityId: number): Promise<MomentFormat> {
  const settings = await facilityDateTimeSettings(q, facilityId);
  return (moment) => formatDateTime(moment, settings);
}

export const iso = (value: Date | string) =>
  value instanceof Date ? value.toISOString() : new Date(value).toISOString();

export const factsOf = (r: LogbookRow): LogbookEntryFacts => ({
  id: r.id,
  event: r.event,
  at: iso(r.occurred_at),
  productId: r.product_id,
  batch: r.batch,
  correctsId: r.corrects_id,
  reason: r.reason,
  dirtyHoldHours: r.dirty_hold_hours,
  cleanHoldHours: r.clean_hold_hours,
  recordedBy: r.recorded_by,
});

export function toEntry(r: LogbookRow, correctedBy: number | null): TLogbookEntry {
  return {
    id: r.id,
    equipmentId: r.equipment_id,
    event: r.event,
    at: iso(r.occurred_at),
    recordedAt: iso(r.recorded_at),
    backDated: r.back_dated,
    recordedBy: r.recorded_by,
    recordedByName: r.recorded_by_name ?? '',
    productId: r.product_id,
    batch: r.batch,
    cleaningProcedureId: r.cleaning_procedure_id,
    runId: r.run_id,
    runName:
      r.run_study_seq != null && r.run_sequence != null
        ? runName(r.run_study_seq, r.run_sequence)
        : null,
    reason: r.reason,
    correctsId: r.corrects_id,
    correctedBy,
    dirtyHoldHours: r.dirty_hold_hours,
    cleanHoldHours: r.clean_hold_hours,
    holdSource: r.hold_source,
    releasedAtRisk: r.released_at_risk,
    signatureId: r.signature_id ?? null,
    signatureMeaning: r.signature_meaning ?? null,
    signerPrintedName: r.signer_printed_name ?? null,
    signedContentHash: r.signed_content_hash ?? null,
  };
}

const COLUMNS = `l.id, l.equipment_id, l.event, l.occurred_at, l.recorded_at, l.back_dated,
  l.recorded_by, l.product_id, l.batch, l.cleaning_procedure_id, l.run_id, l.reason,
  l.corrects_id, l.dirty_hold_hours, l.clean_hold_hours, l.hold_source, l.released_at_risk`;

/**
 * A release's signature as the signatures keep it (entries signed before they did carry a copy
 * in the logbook's own columns).
 */
const SIGNATURE_COLUMNS = `l.signature_id, coalesce(s.meaning, l.signature_meaning) as signature_meaning,
  coalesce(s.printed_name, l.signer_printed_name) as signer_printed_name,
  coalesce(s.content_hash, l.signed_content_hash) as signed_content_hash`;

/** The entries of one item, oldest first (an entry is never dated before the one it follows). */
export async function logbookRows(
  q: Queryable,
  facilityId: number,
  equipmentId: number,
): Promise<LogbookRow[]> {
  return q.query<LogbookRow>(
    `select ${COLUMNS}, ${SIGNATURE_COLUMNS},
            coalesce(u.first_name || ' ' || u.last_name, u.username) as recorded_by_name,
            st.seq as run_study_seq, r.sequence as run_sequence
       from equipment_logbook l join users u on u.id = l.recorded_by
       left join signatures s on s.id = l.signature_id
       left join study_runs r on r.id = l.run_id
       left join studies st on st.id = r.study_id
      where l.facility_id = $1 and l.equipment_id = $2 order by l.id`,
    [facilityId, equipmentId],
  );
}

/**
 * What a release signs (documentType EquipmentRelease, `documentId` the item): the Released
 * entry as the logbook stores it, so that a reading of the signature hashes the stored entry again.
 */
export const releaseContent = (r: LogbookRow) => ({
  event: r.event,
  equipmentId: r.equipment_id,
  at: iso(r.occurred_at),
  backDated: r.back_dated,
  productId: r.product_id,
  batch: r.batch,
  cleaningProcedureId: r.cleaning_procedure_id,
  runId: r.run_id,
  reason: r.reason,
  releasedAtRisk: r.released_at_risk,
  recordedBy: r.recorded_by,
});

/** The stored Released entries of these signatures, as each signed them. */
export async function releasesSigned(
  q: Queryable,
  facilityIds: readonly number[],
  signatureIds: readonly number[],
): Promise<Map<number, unknown>> {
  const rows = await q.query<LogbookRow & { signature_id: number }>(
    `select ${COLUMNS}, l.signature_id from equipment_logbook l
      where l.facility_id = any($1::int[]) and l.signature_id = any($2::int[])`,
    [facilityIds, signatureIds],
  );
  return new Map(rows.map((r) => [r.signature_id, releaseContent(r)]));
}

export function statusItem(
  item: { id: number; name: string },
  status: EquipmentStatus,
): TEquipmentStatusItem {
  return {
    equipmentId: item.id,
    name: item.name,
    state: status.state,
    since: status.since,
    lastProductId: status.lastProductId,
    lastBatch: status.lastBatch,
    dirtyHoldDueAt: status.dirtyHoldDueAt,
    cleanHoldExpiresAt: status.cleanHoldExpiresAt,
    blockingReasons: status.blockingReasons,
  };
}

/** The folds of these items' logs, from their entries (`ids` null: every item of the facility). */
async function foldsOf(q: Queryable, facilityId: number, ids: number[] | null) {
  const rows = await q.query<LogbookRow>(
    `select ${COLUMNS} from equipment_logbook l
      where l.facility_id = $1 and ($2::int[] is null or l.equipment_id = any($2::int[]))
      order by l.equipment_id, l.id`,
    [facilityId, ids],
  );
  const byItem = new Map<number, LogbookEntryFacts[]>();
  for (const row of rows) {
    const list = byItem.get(row.equipment_id) ?? [];
    list.push(factsOf(row));
    byItem.set(row.equipment_id, list);
  }
  return new Map(
    [...byItem].map(([id, facts]) => [id, { fold: foldLogbook(facts), lastId: facts.at(-1)!.id }]),
  );
}

/** Keeps the fold of these items' logs (all of the facility's with `ids` null) beside them. */
export async function keepFolds(q: Queryable, facilityId: number, ids: number[] | null) {
  for (const [id, { fold, lastId }] of await foldsOf(q, facilityId, ids))
    await q.query(
      `insert into equipment_status (equipment_id, facility_id, last_entry_id, fold)
       values ($1, $2, $3, $4)
       on conflict (equipment_id) do update set last_entry_id = $3, fold = $4`,
      [id, facilityId, lastId, JSON.stringify(fold)],
    );
}

/**
 * The board: every live item of the facility with its state at `now`, by name. Each item's fold
 * is read as the write path kept it when it names the item's latest entry, and folded from the
 * log otherwise, so the board, the logbook read and the production hold judge alike.
 */
export async function listEquipmentStatus(
  q: Queryable,
  facilityId: number,
  now: Date,
  productionId: number | null = null,
): Promise<TEquipmentStatusItem[]> {
  if (productionId !== null) {
    const [line] = await q.query(`select 1 from productions where facility_id = $1 and id = $2`, [
      facilityId,
      productionId,
    ]);
    if (!line) throw new AppError('NotFoundError', 'No such production in this facility');
  }
  const items = await q.query<{
    id: number;
    name: string;
    fold: LogbookFold | null;
    kept_id: number | null;
    latest_id: number | null;
  }>(
    `select e.id, e.name, s.fold, s.last_entry_id as kept_id,
            (select max(l.id) from equipment_logbook l
              where l.facility_id = e.facility_id and l.equipment_id = e.id) as latest_id
       from equipment e left join equipment_status s on s.equipment_id = e.id
      where e.facility_id = $1 and e.archived_at is null
        and ($2::int is null or e.id = any(
          (select p.equipment_ids from productions p where p.facility_id = $1 and p.id = $2)::int[]))
      order by lower(e.name), e.id`,
    [facilityId, productionId],
  );
  const stale = items.filter((i) => i.latest_id !== null && i.kept_id !== i.latest_id);
  const folded =
    stale.length > 0
      ? await foldsOf(
          q,
          facilityId,
          stale.map((i) => i.id),
        )
      : null;
  const moment = await facilityMoments(q, facilityId);
  return items.map((item) => {
    const fold = folded?.get(item.id)?.fold ?? (item.latest_id === null ? null : item.fold);
    return statusItem(
      item,
      fold ? statusAt(fold, now, moment) : deriveEquipmentStatus([], now, moment),
    );
  });
}

/**
 * The trains of the facility (each production's live equipment), or of one production, from the
 * board's items: a train is as ready as its least ready item.
 */
export async function listTrainStatus(
  q: Queryable,
  facilityId: number,
  items: readonly TEquipmentStatusItem[],
  productionId: number | null,
): Promise<TTrainStatus[]> {
  const lines = await q.query<{ id: number; name: string; equipment_ids: number[] }>(
    `select id, name, equipment_ids from productions
      where facility_id = $1 and archived_at is null and ($2::int is null or id = $2)
      order by lower(name), id`,
    [facilityId, productionId],
  );
  const byId = new Map(items.map((i) => [i.equipmentId, i]));
  return lines.map((line) => {
    const members = line.equipment_ids.flatMap((id) => byId.get(id) ?? []);
    return {
      productionId: line.id,
      name: line.name,
      equipmentIds: members.map((m) => m.equipmentId),
      ...trainStatus(members),
    };
  });
}

/** The logbook of one item, with its state at `now`. */
export async function readLogbook(
  q: Queryable,
  facilityId: number,
  item: { id: number; name: string },
  now: Date,
) {
  const [rows, moment] = await Promise.all([
    logbookRows(q, facilityId, item.id),
    facilityMoments(q, facilityId),
  ]);
  const correctedBy = new Map(
    rows.filter((r) => r.corrects_id !== null).map((r) => [r.corrects_id!, r.id]),
  );
  return {
    status: statusItem(item, deriveEquipmentStatus(rows.map(factsOf), now, moment)),
    entries: rows.map((r) => toEntry(r, correctedBy.get(r.id) ?? null)),
  };
}
