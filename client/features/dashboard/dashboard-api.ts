import { useQuery } from '@tanstack/react-query';
import type {
  TDashboard,
  TMacLimitTracker,
  TToxicityScore,
} from '#core/schemas/dashboard.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { facilityPath } from '#client/shared/master-data/entity-api.ts';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { dashboardKeys } from '#client/shared/query-keys.ts';

/** The calls of spec §7 "Dashboard": `{F}/dashboard`, `/toxicity-score`, `/mac_limit_tracker`. */

export function useDashboard() {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: dashboardKeys.all(scope.facilityId),
    queryFn: ({ signal }) =>
      apiRequest<{ dashboard: TDashboard }>(`${facilityPath(scope)}/dashboard`, {
        signal,
        action: 'Loading the dashboard',
      }).then((answer) => answer.dashboard),
  });
}

export function useToxicityScore(enabled: boolean) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: dashboardKeys.toxicity(scope.facilityId),
    enabled,
    queryFn: ({ signal }) =>
      apiRequest<{ toxicityScore: TToxicityScore }>(
        `${facilityPath(scope)}/dashboard/toxicity-score`,
        { signal, action: 'Loading the toxicity scores' },
      ).then((answer) => answer.toxicityScore),
  });
}

export function useMacLimitTracker(enabled: boolean) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: dashboardKeys.tracker(scope.facilityId),
    enabled,
    queryFn: ({ signal }) =>
      apiRequest<{ macLimitTracker: TMacLimitTracker }>(
        `${facilityPath(scope)}/dashboard/mac_limit_tracker`,
        { signal, action: 'Loading the MAC limit tracker' },
      ).then((answer) => answer.macLimitTracker),
  });
}
