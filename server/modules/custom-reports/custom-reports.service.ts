import { customReportsDef } from '#core/entities/defs/custom-reports.def.ts';
import { validationError } from '#core/errors/errors.ts';
import {
  columnInfo,
  customReportProblems,
  parseFilterValue,
  sourceDeclaration,
  type FilterOperator,
  type ReportFilter,
  type SourceDeclaration,
  type TCell,
  type TReportColumn,
} from '#core/schemas/custom-reports.schemas.ts';
import type { Queryable, SqlValue } from '#server/db/db.ts';
import { getEntity } from '#server/entities/entity-store.ts';
import { auditNames } from '#server/modules/audit/audit-names.ts';
import { auditSubject, type AuditRowLike } from '#core/audit/audit-format.ts';
import { computableLimitsInput } from '../limits/computable-input.ts';
import { pairRows } from './pairs-source.ts';
import { TABLE_SOURCES, filterCondition, type ParsedFilter } from './table-sources.ts';

/** A saved report made ready to run: its source, the columns it shows and its filters parsed. */
export interface ResolvedReport {
  id: number;
  name: string;
  source: SourceDeclaration;
  columns: TReportColumn[];
  filters: ParsedFilter[];
}

/**
 * The source a saved report draws on, or null when the facility has no such report or it names
 * no source that exists: the guard that asks leaves those to resolveReport's answer.
 */
export async function sourceOfReport(
  q: Queryable,
  facilityId: number,
  id: number,
): Promise<SourceDeclaration | null> {
  const [row] = await q.query<{ source: string }>(
    `select source from ${customReportsDef.table} where facility_id = $1 and id = $2`,
    [facilityId, id],
  );
  return row ? (sourceDeclaration(row.source) ?? null) : null;
}

/**
 * The saved report `id` of the facility. Its definition is checked again, so that one saved
 * before a column was renamed answers 422 on that property rather than a failed query.
 */

export async function resolveReport(
  q: Queryable,
  facilityId: number,
  id: number,
): Promise<ResolvedReport> {
  const record = await getEntity(q, customReportsDef, facilityId, id);
  const problems = customReportProblems(record);
  const source = sourceDeclaration(String(record.source));
  if (problems.length > 0 || !source) throw validationError(problems);
  const byKey = new Map(source.columns.map((c) => [c.key, c]));
  const columns = (record.columns as { key: string }[]).map((c) => columnInfo(byKey.get(c.key)!));
  const filters = ((record.filters ?? []) as ReportFilter[]).map((f) => {
    const column = byKey.get(f.column)!;
    const parsed = parseFilterValue(column, f.value) as { value: string | number | boolean };
    return { column, operator: f.operator as FilterOperator, value: parsed.value };
  });
  return { id: record.id, name: String(record.name), source, columns, filters };
}

export interface ReportRows {
  total: number;
  rows: Record<string, TCell>[];
}

const cell = (value: unknown): TCell =>
  value instanceof Date
    ? value.toISOString()
    : typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
      ? value
      : value === null || value === undefined
        ? null
        : String(value);

/** The report's rows from `offset` (at most `limit`) and how many match in all. */
export async function readReportRows(
  q: Queryable,
  scope: { planId: number; facilityId: number },
  report: ResolvedReport,
  window: { offset: number; limit: number },
): Promise<ReportRows> {
  const { facilityId } = scope;
  const keys = report.columns.map((c) => c.key);
  if (report.source.key === 'pairs') {
    const { input } = await computableLimitsInput(q, facilityId);
    return pairRows(input, keys, report.filters, window);
  }
  const source = TABLE_SOURCES[report.source.key];
  const params: SqlValue[] = [facilityId];
  const where = report.filters.map((f) => ` and ${filterCondition(source, f, params)}`).join('');
  const [count] = await q.query<{ total: number }>(
    `select count(*)::int as total from ${source.from}${where}`,
    params,
  );
  const namesRecords = report.source.key === 'auditEntries' && keys.includes('entityId');
  const select = [
    ...keys.map((key, i) => `${source.expressions[key]} as c${i}`),
    ...(namesRecords ? [AUDIT_SUBJECT_COLUMNS] : []),
  ].join(', ');
  const n = params.length;
  const rows = await q.query<Record<string, unknown>>(
    `select ${select} from ${source.from}${where} order by ${source.order}
      limit $${n + 1} offset $${n + 2}`,
    [...params, window.limit, window.offset],
  );
  const cells = rows.map((row) =>
    Object.fromEntries(keys.map((key, i) => [key, cell(row[`c${i}`])])),
  );
  if (namesRecords) await nameAuditRecords(q, scope.planId, rows, cells);
  return { total: count?.total ?? 0, rows: cells };
}

/** What an audit entry's subject is read from, beside the report's own columns. */
const AUDIT_SUBJECT_COLUMNS = `a.domain as subject_domain, a.entity_id as subject_id,
  a.old_values as subject_old, a.new_values as subject_new`;

/**
 * An audit entry's record by its name ('Product ‘Aspirin’'), as the audit trail screen says it,
 * never the database id the row keeps (issue 30).
 */
async function nameAuditRecords(
  q: Queryable,
  planId: number,
  rows: readonly Record<string, unknown>[],
  cells: Record<string, TCell>[],
): Promise<void> {
  const subjects: AuditRowLike[] = rows.map((row) => ({
    domain: String(row.subject_domain),
    entityId: row.subject_id === null ? null : String(row.subject_id),
    oldValues: (row.subject_old ?? null) as Record<string, unknown> | null,
    newValues: (row.subject_new ?? null) as Record<string, unknown> | null,
  }));
  const names = await auditNames(q, planId, subjects);
  subjects.forEach((subject, i) => (cells[i]!.entityId = auditSubject(subject, names)));
}
