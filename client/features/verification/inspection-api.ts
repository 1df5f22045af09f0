import type { z } from 'zod';
import type {
  ZInspectionInput,
  ZInspectionVerification,
} from '#core/schemas/run-inspection.schemas.ts';
import type { TRun, TRunResponse } from '#core/schemas/verification.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import type { FacilityScope } from '#client/shared/master-data/entity-api.ts';
import { runPath } from './verification-api.ts';

/** The visual inspection calls of a run (POST {F}/runs/{id}/inspection[/verification]). */

export type InspectionBody = z.input<typeof ZInspectionInput>;
export type VerificationBody = z.input<typeof ZInspectionVerification>;

async function post(path: string, action: string, body: unknown): Promise<TRun> {
  return (await apiRequest<TRunResponse>(path, { action, method: 'POST', body })).run;
}

export const inspectionCalls = {
  record: (scope: FacilityScope, id: number, body: InspectionBody) =>
    post(`${runPath(scope, id)}/inspection`, 'Recording the visual inspection', body),
  verify: (scope: FacilityScope, id: number, body: VerificationBody) =>
    post(`${runPath(scope, id)}/inspection/verification`, 'Verifying the visual inspection', body),
};
