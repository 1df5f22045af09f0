import { AppError } from '#core/errors/errors.ts';
import type { AuditAction, AuditDomain, DomainWith } from '#core/audit/audit-events.ts';
import type { RecordDecl } from '#core/entities/record-decl.ts';
import type { Queryable, SqlValue } from '../db/db.ts';
import { writeAudit, type Actor } from '../db/audit-write.ts';
import { writeAuditMany } from '../db/audit-bulk.ts';
import { jsonRows, recordsetOf } from '../db/json-rows.ts';
import {
  updateVersioned,
  updateVersionedMany,
  type Assigned,
} from '../entities/versioned-update.ts';
import { recordEdit, type ControlledVersionState, type KnownLatest } from './controlled.ts';

export { NOW, type Assigned } from '../entities/versioned-update.ts';

/*
 * The one write path of a lifecycle record (core/entities/record-decl.ts): open (row locked,
 * the record's own guard, the version the edit was made from), write (columns, version bumped,
 * history row by the trigger, audit row), then the controlled working version and the record's
 * own after-write hook, all in the caller's transaction (21 CFR 11.10(e): the audit trail is
 * written with the change; EU GMP Annex 11 §12.4).
 */

export interface RecordScope {
  planId: number;
  facilityId: number;
}

/** A stored row as it is (`select *`), snake_case. */
export type StoredRow = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the row as stored

export interface RecordHooks {
  /** Whether the record may change now (its run not yet submitted); throws to refuse. */
  guard?: (tx: Queryable, actor: Actor, scope: RecordScope, row: StoredRow) => Promise<void>;
  /** A controlled record's working content and title, as its signers will see them. */
  content?: (
    tx: Queryable,
    scope: RecordScope,
    id: number,
    /** The record as this write saved it (a hook need not read it again). */
    saved: StoredRow,
  ) => Promise<{
    content: Record<string, unknown>;
    title: string;
    /**
     * The record's latest version as this write already read it locked (its guard), so that
     * its save need not read it again; absent: the save reads it.
     */
    latest?: KnownLatest;
  }>;
  /**
   * What every write does besides, in its transaction (the run's recompute); `saved` is the
   * controlled state the write's working version left, when it saved one.
   */
  afterWrite?: (
    tx: Queryable,
    actor: Actor,
    scope: RecordScope,
    row: StoredRow,
    saved: ControlledVersionState | undefined,
    /** The write created the record. */
    created: boolean,
  ) => Promise<void>;
}

/** The latest version of a record that has none. */
const NONE: KnownLatest = { row: undefined };

/**
 * A declaration with the hooks its module gives it. `D` is its audit domain as the compiler
 * knows it (the declaration's literal one), so its writes take only the actions catalogued for it.
 */
export interface RecordType<D extends AuditDomain = AuditDomain> {
  decl: RecordDecl & { domain: D };
  hooks: RecordHooks;
}

export interface RecordAudit<D extends AuditDomain = AuditDomain> {
  action: AuditAction<D>;
  /** How the audit row names the record where its id alone is not how it always has (a default unit: '3 (mass)'). */
  entity?: string;
  reason?: string | null | undefined;
  oldValues?: Record<string, unknown> | null;
  newValues?: Record<string, unknown> | null;
}

/**
 * The record locked for a change: 404 when it is not the facility's, the record's guard, then
 * 409 VersionConflictError when `version` (the one the edit was made from) is stale.
 */
export async function openRecord(
  tx: Queryable,
  { decl, hooks }: RecordType,
  actor: Actor,
  scope: RecordScope,
  id: number,
  version?: number,
): Promise<StoredRow> {
  const [row] = await tx.query<StoredRow>(
    `select * from ${decl.table} where facility_id = $1 and id = $2 for update`,
    [scope.facilityId, id],
  );
  if (!row) throw new AppError('NotFoundError', `${decl.label} ${id} was not found`);
  await hooks.guard?.(tx, actor, scope, row);
  if (version !== undefined && row.version !== version) throw new AppError('VersionConflictError');
  return row;
}

export interface CreateRecord {
  actor: Actor;
  scope: RecordScope;
  /** Column values; `facility_id`, `seq` (numbered records), `created_by`, `updated_by` are set here. */
  values: Readonly<Record<string, SqlValue>>;
  /** The audit row, from the record as inserted (its number). */
  audit: (row: StoredRow) => Omit<RecordAudit, 'action'>;
}

/** Inserts a record: numbered after the facility's last, audited, its working version saved. */
export async function createRecord<D extends DomainWith<'Create'>>(
  tx: Queryable,
  type: RecordType<D>,
  { actor, scope, values, audit }: CreateRecord,
): Promise<StoredRow> {
  const columns = Object.keys(values);
  const placeholders = columns.map((_, i) => `$${i + 3}`);
  return insertAudited(tx, type, { actor, scope, audit }, columns, placeholders, '', [
    ...Object.values(values),
  ]);
}

/**
 * The insert of one record and what follows it, from `sources` (the columns' values in `from`,
 * parameters from $3 on): its number after the facility's last for a numbered type (the
 * facility's row locked orders concurrent creates), its audit row and working version.
 */
async function insertAudited<D extends DomainWith<'Create'>>(
  tx: Queryable,
  type: RecordType<D>,
  { actor, scope, audit }: Omit<CreateRecord, 'values'>,
  columns: readonly string[],
  sources: readonly string[],
  from: string,
  params: readonly SqlValue[],
): Promise<StoredRow> {
  const { decl } = type;
  if (decl.numbered)
    await tx.query(`select id from facilities where id = $1 for update`, [scope.facilityId]);
  const seq = decl.numbered
    ? [`(select coalesce(max(seq), 0) + 1 from ${decl.table} where facility_id = $1)`]
    : [];
  const [row] = await tx.query<StoredRow>(
    `insert into ${decl.table}
       (facility_id, ${decl.numbered ? 'seq, ' : ''}created_by, updated_by, ${columns.join(', ')})
     select $1::int, ${[...seq, '$2::int', '$2::int', ...sources].join(', ')} ${from}
     returning *`,
    [scope.facilityId, actor.userId, ...params],
  );
  // D takes Create (DomainWith); the compiler does not follow that into AuditAction<D>.
  const created = { action: 'Create' as AuditAction<D>, ...audit(row!) };
  await afterWrite(tx, type, actor, scope, row!, created, true, true);
  return row!;
}

export interface CreateRecords {
  actor: Actor;
  scope: RecordScope;
  /**
   * Each record's column values, the same columns in each, as JSON gives them (server/db/
   * json-rows.ts): a jsonb column's as its object.
   */
  rows: readonly Readonly<Record<string, SqlValue>>[];
  /** Each record's audit row, from the record as inserted. */
  audit: (row: StoredRow, index: number) => Omit<RecordAudit, 'action'>;
}

/** A statement holds at most this many records, as an import's (entity-bulk.ts). */
const RECORDS_PER_STATEMENT = 500;

/**
 * Inserts many records of one type as createRecord inserts each, in a constant number of
 * statements (issue 34): the rows in one INSERT, their audit rows in one more, in the order
 * given (the history rows follow from the trigger as for one). A numbered type, or one whose
 * hooks act per record, takes createRecord's path for each.
 */
export async function createRecords<D extends DomainWith<'Create'>>(
  tx: Queryable,
  type: RecordType<D>,
  { actor, scope, rows, audit }: CreateRecords,
): Promise<StoredRow[]> {
  const { decl, hooks } = type;
  if (decl.numbered || hooks.afterWrite || (decl.controlled && hooks.content)) {
    // One at a time, each typed by the table's row as the many are below (a jsonb column's
    // array would be an SQL array as a parameter of its own).
    const created: StoredRow[] = [];
    for (const [i, values] of rows.entries()) {
      const columns = Object.keys(values);
      created.push(
        await insertAudited(
          tx,
          type,
          { actor, scope, audit: (row) => audit(row, i) },
          columns,
          columns.map((c) => `v.${c}`),
          `from ${recordsetOf(decl.table, 3, 'v')}`,
          [jsonRows([values])],
        ),
      );
    }
    return created;
  }
  if (rows.length === 0) return [];
  const columns = Object.keys(rows[0]!);
  const given = columns.join();
  const created: StoredRow[] = [];
  for (let start = 0; start < rows.length; start += RECORDS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + RECORDS_PER_STATEMENT);
    // A column one row left out would be null in it.
    if (chunk.some((values) => Object.keys(values).join() !== given))
      throw new Error(`createRecords: every row of ${decl.table} has the same columns`);
    // In the order given, which RETURNING keeps: each audit row is built from its own record.
    const inserted = await tx.query<StoredRow>(
      `insert into ${decl.table} (facility_id, created_by, updated_by, ${columns.join(', ')})
       select $2::int, $3::int, $3::int, ${columns.map((c) => `v.${c}`).join(', ')}
         from ${recordsetOf(decl.table, 1, 'v')} order by v.ordinality returning *`,
      [jsonRows(chunk), scope.facilityId, actor.userId],
    );
    await writeAuditMany(
      tx,
      actor,
      inserted.map((row, i) => {
        const entry = audit(row, start + i);
        return {
          ...scope,
          domain: decl.domain,
          action: 'Create' as AuditAction<D>,
          entityId: entry.entity ?? (row.id as number),
          reason: entry.reason ?? null,
          oldValues: entry.oldValues ?? null,
          newValues: entry.newValues ?? null,
        };
      }),
    );
    created.push(...inserted);
  }
  return created;
}

export interface WriteRecord<D extends AuditDomain = AuditDomain> {
  actor: Actor;
  scope: RecordScope;
  /** The record as openRecord locked it. */
  row: StoredRow;
  /** Columns and their new values. */
  set: Readonly<Record<string, Assigned>>;
  audit: RecordAudit<D>;
  /**
   * A write made by the record's own approval (a closure approved): the signature service
   * keeps its controlled state, so no working version is saved.
   */
  byApproval?: true;
  /**
   * A write that changes nothing its signers see (a study's close, a cancellation, a note of
   * bookkeeping): the working version is left as it is, so one under review or approval stays
   * there, and a write of an approved record does not start its next version.
   */
  contentUnchanged?: true;
}

/** Writes an opened record: its columns, version, history and audit row, then its hooks. */
export async function writeRecord<D extends AuditDomain>(
  tx: Queryable,
  type: RecordType<D>,
  { actor, scope, row, set, audit, byApproval, contentUnchanged }: WriteRecord<D>,
): Promise<StoredRow> {
  const saved = await updateOpened(tx, type, actor, scope, row, set);
  await afterWrite(tx, type, actor, scope, saved, audit, !byApproval && !contentUnchanged);
  return saved;
}

export interface WriteByChild {
  actor: Actor;
  scope: RecordScope;
  /** The record, locked by the caller (its child's write opened it). */
  row: StoredRow;
}

/**
 * A record whose child changed (a result or deviation of a run): its version moves and its
 * history row, working version and hooks follow as for any write. The child's own audit row
 * records the change, so the record gets none of its own.
 */
export async function writeByChild<D extends AuditDomain>(
  tx: Queryable,
  type: RecordType<D>,
  { actor, scope, row }: WriteByChild,
): Promise<StoredRow> {
  const saved = await updateOpened(tx, type, actor, scope, row, {});
  await afterWrite(tx, type, actor, scope, saved, null, true);
  return saved;
}

export interface WriteCaused {
  userId: number | null;
  facilityId: number;
  /** The record, locked by the caller. */
  id: number;
  set: Readonly<Record<string, Assigned>>;
}

/**
 * A write that another, audited write causes and explains (a repeat supersedes its original; a
 * completed run moves its study's outcome): the columns, version and history row, but no audit
 * row, working version or hook of its own; the audit row of its cause is its record (21 CFR
 * 11.10(e)).
 */
export async function writeCaused(
  tx: Queryable,
  { decl }: RecordType,
  { userId, facilityId, id, set }: WriteCaused,
): Promise<StoredRow> {
  return updateVersioned(
    tx,
    { table: decl.table, ownerColumn: 'facility_id', ownerId: facilityId, id },
    userId,
    set,
  );
}

/** writeCaused of many records of one type, each with values of its own, in one statement. */
export async function writeCausedMany(
  tx: Queryable,
  { decl }: RecordType,
  {
    userId,
    facilityId,
    rows,
  }: {
    userId: number | null;
    facilityId: number;
    /** The records, locked by the caller, and their new values. */
    rows: readonly { id: number; set: Readonly<Record<string, SqlValue>> }[];
  },
): Promise<StoredRow[]> {
  return updateVersionedMany(
    tx,
    { table: decl.table, ownerColumn: 'facility_id', ownerId: facilityId, rows },
    userId,
  );
}

/** The opened record's columns and version, at the version it was opened at. */
const updateOpened = (
  tx: Queryable,
  { decl }: RecordType,
  actor: Actor,
  scope: RecordScope,
  row: StoredRow,
  set: Readonly<Record<string, Assigned>>,
): Promise<StoredRow> =>
  updateVersioned(
    tx,
    {
      table: decl.table,
      ownerColumn: 'facility_id',
      ownerId: scope.facilityId,
      id: row.id as number,
      version: row.version as number,
    },
    actor.userId,
    set,
  );

async function afterWrite<D extends AuditDomain>(
  tx: Queryable,
  { decl, hooks }: RecordType<D>,
  actor: Actor,
  scope: RecordScope,
  row: StoredRow,
  audit: RecordAudit<D> | null,
  saveContent: boolean,
  created = false,
): Promise<void> {
  if (audit)
    await writeAudit(tx, actor, {
      ...scope,
      domain: decl.domain,
      action: audit.action,
      entityId: audit.entity ?? (row.id as number),
      reason: audit.reason ?? null,
      oldValues: audit.oldValues ?? null,
      newValues: audit.newValues ?? null,
    });
  let saved: ControlledVersionState | undefined;
  if (saveContent && decl.controlled && hooks.content) {
    const { content, title, latest } = await hooks.content(tx, scope, row.id as number, row);
    const ref = { ...scope, documentType: decl.controlled.documentType, documentId: row.id };
    // A record just inserted has no version yet (its id is new; the unique version number
    // would refuse a stale one): its save need not read the latest.
    saved = await recordEdit(
      tx,
      actor,
      ref,
      content,
      title,
      latest ?? (created ? NONE : undefined),
    );
  }
  await hooks.afterWrite?.(tx, actor, scope, row, saved, created);
}
