import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { EntityDef } from '#core/entities/entity.ts';
import { lowerLabel } from '#core/entities/labels.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { facilityPath, type FacilityScope } from '../master-data/entity-api.ts';
import type { AuditLogPage } from './audit-log-api.ts';
import { recordHistoryKeys } from '#client/shared/query-keys.ts';

/** A record's audit rows, newest first (…/{path}/{id}/history). */
export function useRecordHistory(
  scope: FacilityScope,
  def: EntityDef,
  id: number,
  page: { pageNumber: number; pageLimit: number },
) {
  return useQuery({
    queryKey: recordHistoryKeys.page(scope.facilityId, def, id, page),
    queryFn: ({ signal }) =>
      apiRequest<AuditLogPage>(`${facilityPath(scope)}/${def.path}/${id}/history`, {
        query: page,
        action: `Loading the history of the ${lowerLabel(def.label)}`,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}
