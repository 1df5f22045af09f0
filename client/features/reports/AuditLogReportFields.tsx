import { AuditFilterFields } from '#client/shared/audit-log/AuditLogFilters.tsx';
import type { GenerateReportBody } from '#client/shared/reports/reports-api.ts';

/** The audit-log report's parameters: the filters of the audit log screen, unset ones unsent. */
export interface AuditLogReportValues {
  domains?: string[];
  actions?: string[];
  userIds?: number[];
  startDate?: string;
  endDate?: string;
}

export function auditLogReportBody(values: AuditLogReportValues): GenerateReportBody {
  const list = <T,>(v: T[] | undefined) => (v && v.length > 0 ? v : undefined);
  return {
    kind: 'audit-log',
    ...(list(values.domains) ? { domains: values.domains } : {}),
    ...(list(values.actions) ? { actions: values.actions } : {}),
    ...(list(values.userIds) ? { userIds: values.userIds } : {}),
    ...(values.startDate ? { startDate: values.startDate } : {}),
    ...(values.endDate ? { endDate: values.endDate } : {}),
  };
}

/** The audit log screen's filters but the facility: the report's is its own. */
export function AuditLogReportFields() {
  return <AuditFilterFields />;
}
