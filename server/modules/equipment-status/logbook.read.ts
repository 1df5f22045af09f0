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
import { RELEASE_MEANING } from '#core/schemas/equipment-status.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import { canonicalJson, type VersionRow } from '#server/records/controlled.ts';
import type { CheckedSignature } from '#server/records/signatures.read.ts';
import { createHash } from 'node:crypto';
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

export function toEntry(
  r: LogbookRow,
  correctedBy: number | null,
  releaseNumber: number | null,
): TLogbookEntry {
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
    releaseNumber,
  };
}

/**
 * Each Released entry's number among the item's releases, oldest first: the `versionNumber` its
 * signature counts (signRelease) and `GET signatures/pdf` prints it under.
 */
function releaseNumbers(rows: readonly LogbookRow[]): Map<number, number> {
  const released = rows.filter((r) => r.event === 'Released');
  return new Map(released.map((r, i) => [r.id, i + 1]));
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

/**
 * The hash a release signed before the signatures kept releases (migration
 * 20261211130000_equipment_release_signatures) carries in its entry: SHA-256 of the canonical
 * facility, item, meaning and entry values, as the write path of that time computed it.
 */
function earlierReleaseHash(r: LogbookRow & { facility_id: number }): string {
  // The entry's values as they were written then: what a release signs now, without the
  // reason and the recorder, with the correction and the hold fields.
  const { equipmentId, reason: _reason, recordedBy: _by, ...entry } = releaseContent(r);
  const values = {
    ...entry,
    correctsId: r.corrects_id,
    dirtyHoldHours: r.dirty_hold_hours,
    cleanHoldHours: r.clean_hold_hours,
    holdSource: r.hold_source,
  };
  const signed = { facilityId: r.facility_id, equipmentId, meaning: RELEASE_MEANING };
  return createHash('sha256')
    .update(canonicalJson({ ...signed, ...values }))
    .digest('hex');
}

/**
 * The releases signed before the signatures kept them (their entry carries the signer's printed
 * name, the meaning and the content hash, and no signature row): listed among the item's
 * signatures, each checked again on every read as strictly as it can be (21 CFR 11.70). It is
 * valid only when its stored entry still hashes to what was signed ('record_changed' otherwise)
 * and the audit hash chain holds the entry's Released row, written in the same transaction by
 * the same user, with the same printed name, meaning, hash and reason ('no_chain_entry'
 * otherwise): the binding those signatures had (no MAC was made then, so none is claimed). With
 * no row of their own, their id is the negated id of their entry; `versionNumber` counts the
 * item's releases as signRelease does.
 */
export async function earlierReleaseSignatures(
  q: Queryable,
  facilityIds: readonly number[],
  equipmentId: number | null,
): Promise<CheckedSignature[]> {
  const rows = await q.query<
    LogbookRow & {
      facility_id: number;
      ordinal: number;
      audit_hash: string | null;
      audit_name: string | null;
      audit_meaning: string | null;
      audit_reason: string | null;
    }
  >(
    `select * from (
       select ${COLUMNS}, l.facility_id, l.signature_id, l.signature_meaning,
              l.signer_printed_name, l.signed_content_hash,
              (row_number() over (partition by l.facility_id, l.equipment_id order by l.id))::int
                as ordinal
         from equipment_logbook l
        where l.facility_id = any($1::int[]) and l.event = 'Released'
          and ($2::int is null or l.equipment_id = $2)) l
     left join lateral (
       select a.new_values ->> 'contentHash' as audit_hash,
              a.new_values ->> 'printedName' as audit_name,
              a.new_values ->> 'meaning' as audit_meaning, a.reason as audit_reason
         from audit_log a
        where a.user_id = l.recorded_by
          -- The entry's transaction began (the audit row's time) at most a day before its insert.
          and a.at <= l.recorded_at and a.at > l.recorded_at - interval '1 day'
          and a.facility_id = l.facility_id and a.domain = 'EquipmentLogbook'
          and a.action = 'Released' and a.new_values ->> 'entryId' = l.id::text
        order by a.id limit 1) a on true
      where l.signature_id is null
      order by l.id`,
    [facilityIds, equipmentId],
  );
  return rows.map((r) => {
    const hash = r.signed_content_hash ?? '';
    const bound =
      r.audit_hash === hash &&
      r.audit_name === r.signer_printed_name &&
      r.audit_meaning === r.signature_meaning &&
      r.audit_reason === r.reason;
    const problem =
      earlierReleaseHash(r) !== hash ? 'record_changed' : bound ? null : 'no_chain_entry';
    return {
      id: -r.id,
      documentType: 'EquipmentRelease',
      documentId: r.equipment_id,
      versionNumber: r.ordinal,
      action: 'Approve',
      signerRole: 'Approver',
      meaning: r.signature_meaning ?? '',
      printedName: r.signer_printed_name ?? '',
      userId: r.recorded_by,
      signedAt: iso(r.recorded_at),
      contentHash: hash,
      valid: problem === null,
      reason: r.reason,
      limitsSnapshotId: null,
      problem,
    };
  });
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
  const released = releaseNumbers(rows);
  return {
    status: statusItem(item, deriveEquipmentStatus(rows.map(factsOf), now, moment)),
    entries: rows.map((r) => toEntry(r, correctedBy.get(r.id) ?? null, released.get(r.id) ?? null)),
  };
}

/**
 * The `versionNumber`-th release of an equipment item (the latest when none is given), as a
 * version of a signed record: what its signature signed (releaseContent) and a title naming the
 * item, so that `GET signatures/pdf` prints a release with its signature manifest as it prints any
 * signed record (21 CFR 11.50: the printed name, time and meaning with the record). A 404 when
 * the item has no such release.
 */
export async function releaseAsVersion(
  q: Queryable,
  facilityId: number,
  equipmentId: number,
  versionNumber: number | undefined,
): Promise<VersionRow> {
  const [rows, [item]] = await Promise.all([
    logbookRows(q, facilityId, equipmentId),
    q.query<{ name: string }>('select name from equipment where facility_id = $1 and id = $2', [
      facilityId,
      equipmentId,
    ]),
  ]);
  const numbers = releaseNumbers(rows);
  const wanted = versionNumber ?? numbers.size;
  const row = rows.find((r) => numbers.get(r.id) === wanted);
  if (!row || !item)
    throw new AppError(
      'NotFoundError',
      `No such equipment release${versionNumber ? ` ${versionNumber}` : ''} in this facility`,
    );
  return {
    id: row.id,
    version_number: wanted,
    status: 'Approved',
    signature_state: 'Signed',
    content: releaseContent(row),
    title: `Release of ${item.name}`,
    approval_steps: [],
    allow_self_approval: false,
    version: 1,
  };
}
