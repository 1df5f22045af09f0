import { auditActionLabel, auditDomainLabel } from '#core/audit/audit-format.ts';
import { missingRecord } from '#core/labels/missing-record.ts';
import {
  formatDateTime,
  formatDay,
  type DateTimeSettings,
} from '#core/datetime/format-date-time.ts';
import { validationError } from '#core/errors/errors.ts';
import {
  ZAuditLogExportQuery,
  ZAuditLogFilterOptions,
  ZAuditLogPage,
  ZAuditLogQuery,
  ZAuditLogUsers,
  type TAuditLogFilters,
} from '#core/schemas/audit.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { pageOf, pageWindow } from '#server/db/paging.ts';
import { actorOf, sessionOf } from '#server/http/session-guard.ts';
import {
  auditChains,
  allAuditRows,
  assertFacilityInScope,
  auditFilterOptions,
  auditScope,
  auditUsers,
  auditWhere,
  countAuditRows,
  facilityDateTimeSettings,
  listAuditRows,
} from './audit-log.service.ts';
import { auditNames } from './audit-names.ts';
import { renderAuditPdf } from './audit-pdf.ts';
import { chainHeads } from './audit-chain.ts';
import { writeAudit } from '#server/db/audit-write.ts';

/**
 * Above maxRows, an export must be narrowed (dates, users …): one PDF stays readable, and its
 * memory and rendering time stay bounded. An object so that tests can lower it.
 */
export const auditExportLimits = { maxRows: 10_000 };

/** More rows than one file holds must be narrowed (the export, and the audit-log report). */
export function refuseTooManyRows(total: number, what: string): void {
  if (total > auditExportLimits.maxRows) {
    throw validationError([
      {
        property: 'endDate',
        constraints: {
          tooMany: `${total} rows match; ${what} holds at most ${auditExportLimits.maxRows}. Narrow the dates or other filters.`,
        },
      },
    ]);
  }
}

/** A date filter as the facility writes it: a calendar day, or a moment on its wall clock. */
function dateBound(bound: string, settings: DateTimeSettings): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(bound)
    ? formatDay(bound, settings)
    : formatDateTime(bound, settings);
}

export function filterSummary(
  filters: TAuditLogFilters,
  userNames: Map<number, string>,
  facilityName: string | undefined,
  settings: DateTimeSettings,
): string {
  const parts: string[] = [];
  if (filters.domains?.length)
    parts.push(`Domains: ${filters.domains.map(auditDomainLabel).join(', ')}`);
  if (filters.actions?.length)
    parts.push(`Actions: ${filters.actions.map(auditActionLabel).join(', ')}`);
  if (filters.userIds?.length) {
    parts.push(
      `Users: ${filters.userIds.map((id) => userNames.get(id) ?? missingRecord('User', 'unknown')).join(', ')}`,
    );
  }
  if (filters.facilityId !== undefined)
    parts.push(`Facility: ${facilityName ?? missingRecord('Facility', 'unknown')}`);
  if (filters.startDate) parts.push(`From: ${dateBound(filters.startDate, settings)}`);
  if (filters.endDate) parts.push(`To: ${dateBound(filters.endDate, settings)}`);
  return parts.join('; ');
}

/**
 * The audit log screen (spec §3, §7). Permission: AuditLog Get. The list and the filters show
 * the rows of facilities where the caller holds it plus the plan-wide rows; a facilityId filter
 * must name such a facility; the export also checks it in currentFacilityId, whose date and
 * time settings the PDF uses.
 */
export function registerAuditLogRoutes({ app, db, permitPlan }: AppContext): void {
  const r = typed(app);
  const guard = permitPlan('AuditLog', 'Get');

  r.get(
    '/api/v2/audit_logs',
    {
      preHandler: guard,
      schema: {
        tags: ['audit'],
        summary: 'Audit rows, newest first, with the filters that are set',
        querystring: ZAuditLogQuery,
        response: { 200: ZAuditLogPage },
      },
    },
    async (request) => {
      const scope = await auditScope(db, sessionOf(request));
      const query = request.query;
      const current =
        query.currentFacilityId !== undefined && scope.facilityIds.includes(query.currentFacilityId)
          ? query.currentFacilityId
          : undefined;
      const zoneFacility = query.facilityId ?? current ?? scope.facilityIds[0];
      const zone =
        zoneFacility === undefined
          ? 'UTC'
          : (await facilityDateTimeSettings(db, zoneFacility)).timezone;
      const { currentFacilityId: _current, ...filters } = query;
      const where = auditWhere(scope, filters, zone);
      const [total, data] = await Promise.all([
        countAuditRows(db, where),
        listAuditRows(db, where, pageWindow(query)),
      ]);
      return { ...pageOf(data, total, query), names: await auditNames(db, scope.planId, data) };
    },
  );

  r.get(
    '/api/v2/audit_logs/users',
    {
      preHandler: guard,
      schema: {
        tags: ['audit'],
        summary: 'The users of the plan, to filter the audit log by',
        response: { 200: ZAuditLogUsers },
      },
    },
    async (request) => ({ users: await auditUsers(db, sessionOf(request).user.plan_id) }),
  );

  r.get(
    '/api/v2/audit_logs/filter-options',
    {
      preHandler: guard,
      schema: {
        tags: ['audit'],
        summary: 'Domains, actions and facilities that occur in the rows the caller may read',
        response: { 200: ZAuditLogFilterOptions },
      },
    },
    async (request) => auditFilterOptions(db, await auditScope(db, sessionOf(request))),
  );

  r.get(
    '/api/v2/audit_logs/export',
    {
      preHandler: guard,
      schema: {
        tags: ['audit'],
        summary: "The filtered audit log as a PDF ('Audit Logs.pdf'): who, what, when, why",
        querystring: ZAuditLogExportQuery,
        produces: ['application/pdf'],
      },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const scope = await auditScope(db, session);
      const { currentFacilityId, ...filters } = request.query;
      assertFacilityInScope(scope, currentFacilityId);
      const facility = await facilityDateTimeSettings(db, currentFacilityId);
      const where = auditWhere(scope, filters, facility.timezone);
      const total = await countAuditRows(db, where);
      refuseTooManyRows(total, 'an export');
      const rows = [];
      for await (const page of allAuditRows(db, where)) rows.push(...page);
      const users = filters.userIds?.length ? await auditUsers(db, scope.planId) : [];
      const names = new Map(users.map((u) => [u.id, `${u.firstName} ${u.lastName}`]));
      const actor = actorOf(request);
      const heads = await chainHeads(db, auditChains(scope));
      const pdf = await renderAuditPdf({
        chainHeads: [...heads].map(([chain, head]) => ({ chain, ...head })),
        rows,
        names: await auditNames(db, scope.planId, rows),
        facilityName: facility.name,
        settings: facility,
        generatedBy: actor.userName ?? session.user.username,
        generatedAt: new Date(),
        filterSummary: filterSummary(
          filters,
          names,
          filters.facilityId === undefined
            ? undefined
            : (await facilityDateTimeSettings(db, filters.facilityId)).name,
          facility,
        ),
      });
      // Reading the trail out of the system is itself a recorded event.
      await db.transaction((tx) =>
        writeAudit(tx, actor, {
          planId: scope.planId,
          facilityId: currentFacilityId,
          domain: 'AuditLog',
          action: 'Export',
          newValues: { rows: rows.length, filters },
        }),
      );
      return reply
        .header('content-type', 'application/pdf')
        .header(
          'content-disposition',
          `attachment; filename="Audit Logs.pdf"; filename*=UTF-8''Audit%20Logs.pdf`,
        )
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  );
}
