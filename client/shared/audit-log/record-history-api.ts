import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { EntityDef } from '#core/entities/entity.ts';
import { lowerLabel } from '#core/entities/labels.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { facilityPath, type FacilityScope } from '../master-data/entity-api.ts';
import type { AuditLogPage } from './audit-log-api.ts';

export const recordHistoryKey = (scope: FacilityScope, def: EntityDef, id: number) =>
  ['audit_logs', 'record', scope.facilityId, def.key, id] as const;

/** A record's audit rows, newest first (…/{path}/{id}/history). */
export function useRecordHistory(
  scope: FacilityScope,
  def: EntityDef,
  id: number,
  page: { pageNumber: number; pageLimit: number },
) {
  return useQuery({
    queryKey: [...recordHistoryKey(scope, def, id), page.pageNumber, page.pageLimit],
    queryFn: ({ signal }) =>
      apiRequest<AuditLogPage>(`${facilityPath(scope)}/${def.path}/${id}/history`, {
        query: page,
        action: `Loading the history of the ${lowerLabel(def.label)}`,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}
