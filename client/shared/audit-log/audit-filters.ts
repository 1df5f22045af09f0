/** Spec §3 "Audit log filters"; unset ones are not sent (spec §5). */
export interface AuditLogFilters {
  domains?: string[] | undefined;
  actions?: string[] | undefined;
  userIds?: number[] | undefined;
  facilityId?: number | undefined;
  /** The facility's calendar days, 'YYYY-MM-DD'. */
  startDate?: string | undefined;
  endDate?: string | undefined;
}

/** Lists travel comma-separated, which the server splits again. */
export function filterQuery(filters: AuditLogFilters): Record<string, string | number | undefined> {
  const list = (values: readonly (string | number)[] | undefined) =>
    values && values.length > 0 ? values.join(',') : undefined;
  return {
    domains: list(filters.domains),
    actions: list(filters.actions),
    userIds: list(filters.userIds),
    facilityId: filters.facilityId,
    startDate: filters.startDate || undefined,
    endDate: filters.endDate || undefined,
  };
}
