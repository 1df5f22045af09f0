import { Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Navigate, useParams } from 'react-router';
import { LoadErrorAlert } from '#client/shared/LoadErrorAlert.tsx';
import { useFacilityScope } from '#client/shared/master-data/use-facility-scope.ts';
import { facilityPath } from '#client/shared/master-data/entity-api.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { verificationKeys } from '#client/shared/query-keys.ts';
import type { TRun } from '#core/schemas/verification.schemas.ts';

/** /deviations/:id — a deviation is shown on its run's screen: opens it. */
export function DeviationRedirect() {
  const id = Number(useParams().id);
  const scope = useFacilityScope();
  const run = useQuery({
    queryKey: verificationKeys.deviation(scope.facilityId, id),
    queryFn: ({ signal }) =>
      apiRequest<{ run: TRun }>(`${facilityPath(scope)}/deviations/${id}`, {
        signal,
        action: 'Opening the deviation',
      }).then((answer) => answer.run),
  });
  if (run.isError) return <LoadErrorAlert title="Could not open the deviation" query={run} />;
  if (run.isPending) return <Spin />;
  return <Navigate replace to={`/runs/${run.data.id}`} />;
}
