import type { AuditNames } from '#core/audit/audit-format.ts';
import type { TAuditLogFilters, TAuditLogRow } from '#core/schemas/audit.schemas.ts';
import type { TGenerateReportBody } from '#core/schemas/reports.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import { filterSummary, refuseTooManyRows } from '#server/modules/audit/audit-log.routes.ts';
import {
  allAuditRows,
  auditUsers,
  auditWhere,
  countAuditRows,
  facilityDateTimeSettings,
  type AuditWhere,
} from '#server/modules/audit/audit-log.service.ts';
import { auditNames } from '#server/modules/audit/audit-names.ts';
import { auditRowsTable } from '#server/modules/audit/audit-pdf.ts';
import type { ReportKind } from '../report-kinds.ts';

/*
 * The audit-log report (spec §3 "GET the audit-log report", §7 audit_logs/last_report): the
 * rows of GET audit_logs under its filters, of the report's facility and the plan-wide rows, as
 * they stood at the report's moment, on the controlled layout. Reading it needs AuditLog Get.
 */

interface Data {
  filters: string;
  rows: TAuditLogRow[];
  /** Absent in reports stored before records were named. */
  names?: AuditNames;
}

function filtersOf(parameters: TGenerateReportBody): TAuditLogFilters {
  if (parameters.kind !== 'audit-log') throw new Error('not an audit-log report');
  const { kind: _kind, ...filters } = parameters;
  return filters;
}

/** The rows of the facility (and the plan-wide ones) these filters select, up to `asOf`. */
async function selection(
  q: Queryable,
  facilityId: number,
  filters: TAuditLogFilters,
  asOf?: string,
) {
  const settings = await facilityDateTimeSettings(q, facilityId);
  const [facility] = await q.query<{ plan_id: number }>(
    'select plan_id from facilities where id = $1',
    [facilityId],
  );
  const planId = facility!.plan_id;
  const where: AuditWhere = auditWhere(
    { planId, facilityIds: [facilityId] },
    filters,
    settings.timezone,
  );
  if (asOf) {
    where.params.push(asOf);
    where.sql += ` and a.at <= $${where.params.length}::timestamptz`;
  }
  return { where, planId };
}

/** One report holds at most as many rows as one export (audit-log.routes.ts). */
async function refuseTooMany(q: Queryable, where: AuditWhere): Promise<void> {
  refuseTooManyRows(await countAuditRows(q, where), 'a report');
}

export const auditLogKind: ReportKind = {
  fontSize: 7,
  permission: { resource: 'AuditLog', action: 'Get' },
  async check(q, facilityId, parameters) {
    const { where } = await selection(q, facilityId, filtersOf(parameters));
    await refuseTooMany(q, where);
  },
  async compute(q, facilityId, parameters, asOf) {
    const filters = filtersOf(parameters);
    const { where, planId } = await selection(q, facilityId, filters, asOf);
    await refuseTooMany(q, where);
    const rows: TAuditLogRow[] = [];
    for await (const page of allAuditRows(q, where)) rows.push(...page);
    const users = filters.userIds?.length ? await auditUsers(q, planId) : [];
    const names = new Map(users.map((u) => [u.id, `${u.firstName} ${u.lastName}`]));
    const data: Data = {
      filters: filterSummary(
        filters,
        names,
        undefined,
        await facilityDateTimeSettings(q, facilityId),
      ),
      rows,
      names: await auditNames(q, planId, rows),
    };
    return { title: 'Audit log', data };
  },
  pdfContent(raw, settings) {
    const data = raw as Data;
    return [
      {
        text: `Filters: ${data.filters || 'none'} · ${data.rows.length} rows, newest first`,
        margin: [0, 0, 0, 8],
      },
      auditRowsTable(data.rows, settings, data.names),
    ];
  },
};
