import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  TAuditLogRow,
  ZAuditLogPage,
  ZAuditLogFilterOptions,
  ZAuditLogUsers,
} from '#core/schemas/audit.schemas.ts';
import { apiDownload, apiRequest, saveBlob } from '#client/api/http-client.ts';
import { filterQuery, type AuditLogFilters } from './audit-filters.ts';

export type { AuditLogFilters };

export type AuditLogRow = TAuditLogRow;
export type AuditLogUser = z.infer<typeof ZAuditLogUsers>['users'][number];
export type AuditFilterOptions = z.infer<typeof ZAuditLogFilterOptions>;

export type AuditLogPage = z.infer<typeof ZAuditLogPage>;

export const auditLogKeys = {
  all: ['audit_logs'] as const,
  list: (filters: AuditLogFilters, pageNumber: number, pageLimit: number) =>
    ['audit_logs', 'list', filters, pageNumber, pageLimit] as const,
  users: ['audit_logs', 'users'] as const,
  options: ['audit_logs', 'filter-options'] as const,
};

export function useAuditLogs(
  filters: AuditLogFilters,
  pageNumber: number,
  pageLimit: number,
  currentFacilityId: number | null,
) {
  return useQuery({
    queryKey: auditLogKeys.list(filters, pageNumber, pageLimit),
    queryFn: ({ signal }) =>
      apiRequest<AuditLogPage>('/audit_logs', {
        query: {
          ...filterQuery(filters),
          pageNumber,
          pageLimit,
          currentFacilityId: currentFacilityId ?? undefined,
        },
        action: 'Loading the audit log',
        signal,
      }),
    placeholderData: keepPreviousData,
    // Read again whenever the log is shown: a change the user just made must be in it at once,
    // not after the app's 30 s (EU GMP Annex 11 §9; 21 CFR 11.10(e)). Kept pages still show
    // while it loads.
    staleTime: 0,
  });
}

export function useAuditLogUsers() {
  return useQuery({
    queryKey: auditLogKeys.users,
    queryFn: ({ signal }) =>
      apiRequest<{ users: AuditLogUser[] }>('/audit_logs/users', {
        action: 'Loading users',
        signal,
      }),
    select: (response) => response.users,
  });
}

export function useAuditFilterOptions() {
  return useQuery({
    queryKey: auditLogKeys.options,
    queryFn: ({ signal }) =>
      apiRequest<AuditFilterOptions>('/audit_logs/filter-options', {
        action: 'Loading audit log filters',
        signal,
      }),
  });
}

export const EXPORT_FILE_NAME = 'Audit Logs.pdf';

/** Downloads the filtered log as 'Audit Logs.pdf' (spec §7). */
export async function exportAuditLogs(
  filters: AuditLogFilters,
  currentFacilityId: number,
): Promise<void> {
  const blob = await apiDownload('/audit_logs/export', {
    query: { ...filterQuery(filters), currentFacilityId },
    action: 'Exporting the audit log',
  });
  saveBlob(blob, EXPORT_FILE_NAME);
}
