import { limitsSnapshotNameSql } from '#server/modules/audit/audit-names.ts';
import { AppError } from '#core/errors/errors.ts';
import type { TListQuery } from '#core/schemas/common.schemas.ts';
import {
  REPORT_KIND_INFO,
  ZGenerateReportBody,
  type TGenerateReportBody,
  type TReport,
  type TReportFormat,
  type TReportKind,
} from '#core/schemas/reports.schemas.ts';
import type { TSignature } from '#core/schemas/signatures.schemas.ts';
import type { TJobProgress } from '#core/schemas/jobs.schemas.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import {
  enqueueJob,
  jobProgressColumn,
  registerJobHandler,
  WITHOUT_JOB,
  type JobHooks,
} from '#server/jobs/jobs.ts';
import {
  controlledState,
  controlledStates,
  registerDocumentType,
  type ControlledRef,
  type ControlledVersionState,
} from '#server/records/controlled.ts';
import { reportsDecl } from '#core/entities/defs/reports.def.ts';
import { NOW, openRecord, writeRecord, type RecordType } from '#server/records/write-record.ts';
import { listSignatures } from '#server/records/signatures.read.ts';
import { integrityOf, shownState } from '#server/records/record-integrity.ts';
import { recordCheck, type RecordCheck } from './record-report-parts.ts';
import { facilityDateTimeSettings } from '../audit/audit-log.service.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';
import { dataHashOf, renderControlledPdfFile } from './controlled-pdf.ts';
import {
  bufferToStore,
  pdfFileToStore,
  storedReportFile,
  storeReportFile,
  type StoredReportFile,
} from './report-file-store.ts';
import type { PdfFile } from '#server/util/pdf/render-pdf.ts';
import { REPORT_KIND_DEFS, reportDocumentType } from './report-kinds.ts';
import { facilityHistoryStart } from '#server/entities/entity-history.ts';
import { historyNote, historyStartOf } from '#server/entities/entity-store.ts';

/*
 * Reports as controlled documents (README.md in this folder): a generate request stores the
 * report and enqueues its job; the job reads the data as of that moment, hashes it, renders the
 * files and makes the record version 1 Being Built (document type ReportDocument).
 */

export const DOCUMENT_TYPE = 'ReportDocument';
export const AUDIT_DOMAIN = reportsDecl.domain;
export const JOB_NAME = 'report';
const STAGES = ['Reading data', 'Rendering files', 'Storing the report'] as const;

export interface Scope {
  planId: number;
  facilityId: number;
}

interface ReportRow {
  id: number;
  facility_id: number;
  plan_id: number;
  number: string;
  kind: TReportKind;
  title: string;
  parameters: TGenerateReportBody;
  job_id: string | null;
  as_of: string | null;
  /** Set when some records that existed at `as_of` are kept only from this later moment. */
  history_starts_at: string | null;
  limits_snapshot_id: number | null;
  limits_snapshot_name?: string | null;
  data_hash: string | null;
  error: string | null;
  generated_by: number;
  generated_by_name: string | null;
  generated_at: Date;
  completed_at: Date | null;
  version: number;
  job_progress: TJobProgress | null;
}

const COLUMNS = `r.id, r.facility_id, f.plan_id, r.number, r.kind, r.title, r.parameters, r.job_id,
  to_char(r.as_of at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as as_of,
  to_char(r.history_starts_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as history_starts_at,
  r.limits_snapshot_id, ${limitsSnapshotNameSql('r.limits_snapshot_id')} as limits_snapshot_name,
  r.data_hash, r.error, r.generated_by, r.generated_by_name,
  r.generated_at, r.completed_at, r.version, ${jobProgressColumn('r.job_id')}`;

const NOT_YET: ControlledVersionState = {
  status: 'BeingBuilt',
  signatureState: null,
  versionNumber: 1,
};

const refOf = (
  facilityId: number,
  id: number,
  kind: TReportKind,
): Omit<ControlledRef, 'planId'> => ({
  facilityId,
  documentType: reportDocumentType(kind),
  documentId: id,
});

/**
 * A report through the one write path, controlled under its kind's document type; what its
 * signers see is given with the write (the files' hashes and the moment read, to the
 * microsecond, are the job's).
 */
function reportType(
  kind: TReportKind,
  content?: { content: Record<string, unknown>; title: string },
): RecordType<typeof reportsDecl.domain> {
  return {
    decl: { ...reportsDecl, controlled: { documentType: reportDocumentType(kind) } },
    hooks: content ? { content: () => Promise.resolve(content) } : {},
  };
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

async function reportRows(q: Queryable, where: string, params: unknown[]): Promise<ReportRow[]> {
  return q.query<ReportRow>(
    `select ${COLUMNS} from reports r join facilities f on f.id = r.facility_id where ${where}`,
    params as never,
  );
}

async function reportRow(q: Queryable, facilityId: number, id: number): Promise<ReportRow> {
  const [row] = await reportRows(q, 'r.facility_id = $1 and r.id = $2', [facilityId, id]);
  if (!row) throw new AppError('NotFoundError', 'No such report');
  return row;
}

/** The files as the job generated them (the PDF's first rendition: the draft). */
async function generatedFiles(q: Queryable, ids: number[]) {
  if (ids.length === 0) return new Map<number, TReport['files']>();
  const rows = await q.query<{
    report_id: number;
    format: TReportFormat;
    sha256: string;
    created_at: Date;
  }>(
    `select distinct on (report_id, format) report_id, format, sha256, created_at
       from report_files where report_id = any($1::int[]) order by report_id, format, id`,
    [ids],
  );
  const files = new Map<number, TReport['files']>();
  for (const r of rows) {
    const list = files.get(r.report_id) ?? [];
    list.push({ format: r.format, sha256: r.sha256, createdAt: iso(r.created_at)! });
    files.set(r.report_id, list);
  }
  return files;
}

async function toReports(q: Queryable, facilityId: number, rows: ReportRow[]): Promise<TReport[]> {
  const ids = rows.map((r) => r.id);
  // Each report's state under the document type it is signed as (AnnualSummary or ReportDocument).
  const types = [...new Set(rows.map((r) => reportDocumentType(r.kind)))];
  const [stateMaps, files] = await Promise.all([
    Promise.all(
      types.map((documentType) =>
        controlledStates(
          q,
          { facilityId, documentType },
          rows.filter((r) => reportDocumentType(r.kind) === documentType).map((r) => r.id),
        ),
      ),
    ),
    generatedFiles(q, ids),
  ]);
  const states = new Map(stateMaps.flatMap((m) => [...m]));
  return rows.map((r) => ({
    id: r.id,
    number: r.number,
    kind: r.kind,
    documentType: reportDocumentType(r.kind),
    title: r.title,
    parameters: r.parameters,
    jobId: r.job_id,
    progress: r.job_progress,
    asOf: r.as_of,
    ...historyNote([{ historyStartsAt: r.history_starts_at }]),
    limitsSnapshotId: r.limits_snapshot_id,
    limitsSnapshotName: r.limits_snapshot_name ?? null,
    dataHash: r.data_hash,
    error: r.error,
    generatedBy: r.generated_by_name,
    generatedAt: iso(r.generated_at)!,
    completedAt: iso(r.completed_at),
    files: files.get(r.id) ?? [],
    ...(states.get(r.id) ?? NOT_YET),
    version: r.version,
  }));
}

export async function getReport(q: Queryable, facilityId: number, id: number): Promise<TReport> {
  const [report] = await toReports(q, facilityId, [await reportRow(q, facilityId, id)]);
  return report!;
}

export async function listReports(
  q: Queryable,
  facilityId: number,
  query: TListQuery & { kind?: TReportKind | undefined },
): Promise<{ reports: TReport[]; total: number }> {
  const limit = query.pageLimit;
  const offset = (query.pageNumber - 1) * limit;
  const kind = query.kind ?? null;
  const rows = await reportRows(
    q,
    `r.facility_id = $1 and ($2::text is null or r.kind = $2)
      order by r.id desc limit $3 offset $4`,
    [facilityId, kind, limit, offset],
  );
  const [count] = await q.query<{ n: number }>(
    `select count(*)::int as n from reports where facility_id = $1 and ($2::text is null or kind = $2)`,
    [facilityId, kind],
  );
  return { reports: await toReports(q, facilityId, rows), total: count?.n ?? 0 };
}

/** Stores the report (numbered RPT-0001 on in the facility) and enqueues its job, in one transaction. */
export async function startReport(
  db: Db,
  actor: Actor,
  scope: Scope,
  parameters: TGenerateReportBody,
): Promise<{ report: TReport; jobId: string }> {
  const title = REPORT_KIND_INFO[parameters.kind].label;
  await REPORT_KIND_DEFS[parameters.kind].check?.(db, scope.facilityId, parameters);
  const id = await db.transaction(async (tx) => {
    await tx.query('select id from facilities where id = $1 for update', [scope.facilityId]);
    const [inserted] = await tx.query<{ id: number }>(
      `insert into reports (facility_id, seq, number, kind, title, parameters, generated_by,
                            generated_by_name, updated_by)
       select $1, n, 'RPT-' || lpad(n::text, 4, '0'), $2, $3, $4, $5, $6, $5
         from (select coalesce(max(seq), 0) + 1 as n from reports where facility_id = $1) s
       returning id`,
      [
        scope.facilityId,
        parameters.kind,
        title,
        JSON.stringify(parameters),
        actor.userId,
        actor.userName,
      ],
    );
    const reportId = inserted!.id;
    const jobId = await enqueueJob(tx, scope.facilityId, JOB_NAME, { reportId });
    await tx.query('update reports set job_id = $2 where id = $1', [reportId, jobId]);
    await writeAudit(tx, actor, {
      planId: scope.planId,
      facilityId: scope.facilityId,
      domain: AUDIT_DOMAIN,
      action: 'Generate',
      entityId: reportId,
      newValues: { kind: parameters.kind, parameters, jobId },
    });
    return reportId;
  });
  const report = await getReport(db, scope.facilityId, id);
  return { report, jobId: report.jobId! };
}

/** The facility's limits snapshot in force at `asOf`: the latest stored by then. */
async function snapshotAt(q: Queryable, facilityId: number, asOf: string): Promise<number | null> {
  const [row] = await q.query<{ id: number | null }>(
    'select max(id) as id from limits_snapshots where facility_id = $1 and created_at <= $2',
    [facilityId, asOf],
  );
  return row?.id ?? null;
}

/**
 * A report's data read again as of its date from its stored parameters. When some of the
 * facility's records that existed then are kept only from a later moment (made before versions
 * were kept), the reads show them as first kept: the data says from when (`historyStartsAt`,
 * hashed with the rest), as every read as of a moment does (21 CFR 11.10(b)).
 */
export async function computeReport(
  q: Queryable,
  facilityId: number,
  parameters: TGenerateReportBody,
  asOf: string,
) {
  const kind = REPORT_KIND_DEFS[parameters.kind];
  const [computed, limitsSnapshotId, facilityStart] = await Promise.all([
    kind.compute(q, facilityId, ZGenerateReportBody.parse(parameters), asOf),
    snapshotAt(q, facilityId, asOf),
    facilityHistoryStart(q, facilityId, asOf),
  ]);
  // A kind's own reads may say it already (the limits views), of a plan's records too.
  const historyStartsAt = historyStartOf([
    computed.data as object,
    { historyStartsAt: facilityStart },
  ]);
  // Only then: the data, and so the hash, of a report within the history stays as it was.
  const data = historyStartsAt ? { ...(computed.data as object), historyStartsAt } : computed.data;
  return {
    title: computed.title,
    data,
    historyStartsAt,
    limitsSnapshotId,
    dataHash: dataHashOf(data),
  };
}

interface PdfState {
  state: ControlledVersionState;
  signatures: TSignature[];
  /** The record a report of one record shows, checked now. */
  record?: RecordCheck | undefined;
}

/** The record state a PDF shows, as a key: one stored rendition per state. */
// A signature found not valid since ('!') is a new state: the stored rendition showed it valid;
// so is a change of the shown record's integrity or of its signatures' validity.
const stateKey = ({ state, signatures, record }: PdfState) =>
  `v${state.versionNumber}:${state.status}:${signatures.map((s) => `${s.id}${s.valid ? '' : '!'}`).join(',')}${record ? `:record ${record.stateKey}` : ''}`;

/**
 * The report's state as its PDF shows it: its version, whose status is never Approved when its
 * integrity is broken (record-integrity.ts), its signatures, and the record it shows, checked.
 */
async function pdfState(q: Queryable, key: Buffer, row: ReportRow): Promise<PdfState> {
  const ref = refOf(row.facility_id, row.id, row.kind);
  const shows = REPORT_KIND_DEFS[row.kind].record?.(row.parameters);
  const [latest, listed, integrity, record] = await Promise.all([
    controlledState(q, ref),
    listSignatures(q, key, ref),
    integrityOf(q, key, ref, [row.id]),
    shows ? recordCheck(q, key, row.facility_id, shows) : undefined,
  ]);
  const state = shownState(latest ?? NOT_YET, integrity(row.id));
  const signatures = listed.filter((s) => s.versionNumber === state.versionNumber);
  return { state, signatures, record };
}

const generatedByOf = (row: ReportRow) => row.generated_by_name ?? `user ${row.generated_by}`;

/** The PDF of a report in a state, written to a file of its own (removed by the caller). */
async function renderPdf(
  q: Queryable,
  row: ReportRow,
  data: unknown,
  xlsx: { format: string; sha256: string }[],
  at: PdfState,
): Promise<PdfFile> {
  const settings = await facilityDateTimeSettings(q, row.facility_id);
  const kind = REPORT_KIND_DEFS[row.kind];
  const [snapshot] = await q.query<{ name: string | null }>(
    `select ${limitsSnapshotNameSql('$1::int')} as name`,
    [row.limits_snapshot_id],
  );
  return renderControlledPdfFile({
    facilityName: settings.name,
    title: row.title,
    number: row.number,
    versionNumber: at.state.versionNumber,
    status: at.state.status,
    signatureState: at.state.signatureState,
    settings,
    generatedBy: generatedByOf(row),
    generatedAt: new Date(row.generated_at),
    dataHash: row.data_hash!,
    files: xlsx,
    limitsSnapshotName: snapshot?.name ?? null,
    parameters: row.parameters,
    asOf: row.as_of,
    historyStartsAt: row.history_starts_at,
    signatures: at.signatures,
    parts: kind.pdfParts?.(data, settings, at.record) ?? [
      kind.pdfContent(data, settings, at.record),
    ],
    ...(kind.fontSize ? { fontSize: kind.fontSize } : {}),
  });
}

/** The job: read the data as of now, hash it, render the files, store the record. */
export async function runReport(
  db: Db,
  reportId: number,
  job: JobHooks = WITHOUT_JOB,
): Promise<void> {
  const { progress } = job;
  const [first] = await reportRows(db, 'r.id = $1', [reportId]);
  if (!first) throw new Error(`report ${reportId} does not exist`);
  // A job run again after it finished (a retry) changes nothing.
  if (first.completed_at) return;
  const stage = (n: number) => progress({ stage: STAGES[n]!, done: n, total: STAGES.length });
  const actor: Actor = {
    userId: first.generated_by,
    userName: first.generated_by_name,
    ip: null,
    userAgent: null,
    requestId: null,
  };
  let pdf: PdfFile | undefined;
  try {
    await stage(0);
    // The database's clock, to the microsecond: what "as of its date" reads again.
    const [clock] = await db.query<{ at: string }>(
      `select to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at`,
    );
    const asOf = clock!.at;
    const computed = await computeReport(db, first.facility_id, first.parameters, asOf);
    await stage(1);
    const kind = REPORT_KIND_DEFS[first.kind];
    const { significantDigits } = await facilityDateTimeSettings(db, first.facility_id);
    const meta = { asOf, generatedBy: generatedByOf(first), significantDigits };
    const workbook = kind.xlsx ? await kind.xlsx(computed.data, meta) : null;
    const xlsx = workbook ? bufferToStore(workbook) : null;
    const xlsxFiles = xlsx ? [{ format: 'xlsx', sha256: xlsx.sha256 }] : [];
    const row: ReportRow = {
      ...first,
      title: computed.title,
      as_of: asOf,
      history_starts_at: computed.historyStartsAt ?? null,
      limits_snapshot_id: computed.limitsSnapshotId,
      data_hash: computed.dataHash,
    };
    const draft: PdfState = { state: NOT_YET, signatures: [] };
    pdf = await renderPdf(db, row, computed.data, xlsxFiles, draft);
    await stage(2);
    await db.transaction(async (tx) => {
      if (xlsx) await storeReportFile(tx, reportId, 'xlsx', 'generated', xlsx);
      await storeReportFile(tx, reportId, 'pdf', stateKey(draft), pdfFileToStore(pdf!));
      const type = reportType(first.kind, {
        content: {
          number: first.number,
          kind: first.kind,
          title: computed.title,
          parameters: first.parameters,
          asOf,
          ...historyNote([computed]),
          limitsSnapshotId: computed.limitsSnapshotId,
          dataHash: computed.dataHash,
          files: [...xlsxFiles, { format: 'pdf', sha256: pdf!.sha256 }],
        },
        title: `${first.number} ${computed.title}`,
      });
      const scope = { planId: first.plan_id, facilityId: first.facility_id };
      await writeRecord(tx, type, {
        actor,
        scope,
        row: await openRecord(tx, type, actor, scope, reportId),
        set: {
          title: computed.title,
          as_of: asOf,
          history_starts_at: computed.historyStartsAt ?? null,
          limits_snapshot_id: computed.limitsSnapshotId,
          data: JSON.stringify(computed.data),
          data_hash: computed.dataHash,
          completed_at: NOW,
          error: null,
        },
        audit: {
          action: 'Complete',
          newValues: { number: first.number, dataHash: computed.dataHash },
        },
      });
      // The report and its job end together: a report read as completed reads as done.
      await job.complete(tx, { stage: 'Done', done: STAGES.length, total: STAGES.length });
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await db.query('update reports set error = $2 where id = $1', [reportId, message]);
    throw error;
  } finally {
    await pdf?.remove();
  }
}

/**
 * Reports are signed like any controlled record, under their kind's document type
 * (ReportDocument, or AnnualSummary): Submit needs ReportDocument Modify.
 */
export function registerReports(): void {
  registerJobHandler<{ reportId: number }>(JOB_NAME, (data, ctx) =>
    runReport(ctx.db, data.reportId, ctx),
  );
  const kinds = Object.keys(REPORT_KIND_DEFS) as TReportKind[];
  for (const documentType of new Set(kinds.map(reportDocumentType)))
    registerDocumentType(documentType, {
      resource: 'ReportDocument',
      action: 'Modify',
      title: (content) => `${String(content.number ?? '')} ${String(content.title ?? '')}`,
      recordVersion: async (q, ref) => {
        const [found] = await q.query<{ version: number }>(
          'select version from reports where facility_id = $1 and id = $2 and kind = any($3::text[])',
          [
            ref.facilityId,
            ref.documentId,
            kinds.filter((k) => reportDocumentType(k) === documentType),
          ],
        );
        return found?.version ?? null;
      },
    });
}

async function completedRow(q: Queryable, facilityId: number, id: number, kind?: TReportKind) {
  const row = await reportRow(q, facilityId, id);
  if (kind && row.kind !== kind) throw new AppError('NotFoundError', `No such ${kind} report`);
  if (!row.completed_at)
    throw new AppError('TransactionLocked', 'The report is still being generated');
  return row;
}

/**
 * The report's PDF as its record stands now: the stored rendition for this state (version,
 * status, signatures), rendered and stored with its hash the first time it is asked for; read
 * out a piece at a time.
 */
export async function reportPdf(
  db: Db,
  signingKey: Buffer,
  facilityId: number,
  id: number,
  kind?: TReportKind,
): Promise<{ file: StoredReportFile; row: ReportRow }> {
  const row = await completedRow(db, facilityId, id, kind);
  const at = await pdfState(db, signingKey, row);
  const key = stateKey(at);
  const stored = await storedReportFile(db, id, 'pdf', key);
  if (stored) return { file: stored, row };
  const [full] = await db.query<{ data: unknown }>('select data from reports where id = $1', [id]);
  const xlsx = (await generatedFiles(db, [id])).get(id)?.filter((f) => f.format === 'xlsx') ?? [];
  const pdf = await renderPdf(db, row, full!.data, xlsx, at);
  try {
    await db.transaction((tx) => storeReportFile(tx, id, 'pdf', key, pdfFileToStore(pdf)));
  } finally {
    await pdf.remove();
  }
  return { file: (await storedReportFile(db, id, 'pdf', key))!, row };
}

/** The xlsx as generated. */
export async function reportXlsx(db: Db, facilityId: number, id: number, kind: TReportKind) {
  const row = await completedRow(db, facilityId, id, kind);
  const file = await storedReportFile(db, id, 'xlsx');
  if (!file) throw new AppError('NotFoundError', `A ${row.kind} report has no xlsx file`);
  return { file, row };
}

/** Reads the report's data again as of its date: the same hash says the same numbers. */
export async function regenerateReport(db: Db, facilityId: number, id: number) {
  const row = await completedRow(db, facilityId, id);
  const computed = await computeReport(db, facilityId, row.parameters, row.as_of!);
  return {
    dataHash: computed.dataHash,
    storedDataHash: row.data_hash,
    limitsSnapshotId: computed.limitsSnapshotId,
    same: computed.dataHash === row.data_hash,
    ...historyNote([computed]),
  };
}
