import { ZInspectionInput, ZInspectionVerification } from '#core/schemas/run-inspection.schemas.ts';
import { ZRunResponse } from '#core/schemas/verification.schemas.ts';
import { F, ZIdParams, scopeOf } from '../route-base.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf } from '#server/http/session-guard.ts';
import { recordInspection, verifyInspection } from './inspection.ts';
import { getRun } from './runs.read.ts';

/** The visual inspection of a run and its second-person verification (inspection.ts). */
export function registerInspectionRoutes({ app, db, permit }: AppContext): void {
  const r = typed(app);
  const modifier = permit('QualificationTask', 'Modify');

  r.post(
    `${F}/runs/:id/inspection`,
    {
      preHandler: modifier,
      schema: {
        tags: ['runs'],
        summary: 'Record the visual inspection of the run (by the signed-in inspector)',
        description:
          'Judged against the cleaning inspection settings the run pinned when its cleaning started (`run.inspection.settingsVersion`): one answer per checklist item (Pass, Fail or N/A; a mandatory item cannot be N/A), the light at the surface in lux (a Pass below the minimum is refused), notes for a Fail, a photo evidence reference where the settings require photos. A Pass with a failed mandatory item is refused. Every problem is answered at once (422 DataValidationError, per field). Recording it again needs a reason and clears its verification. Until the run is submitted.',
        params: ZIdParams,
        body: ZInspectionInput,
        response: { 200: ZRunResponse },
      },
    },
    async (request) => {
      const { facility, id } = request.params;
      await recordInspection(db, actorOf(request), scopeOf(request.params), id, request.body);
      return { run: await getRun(db, facility, id) };
    },
  );

  r.post(
    `${F}/runs/:id/inspection/verification`,
    {
      preHandler: modifier,
      schema: {
        tags: ['runs'],
        summary: 'Verify the recorded visual inspection as the second person',
        description:
          'The signed-in user verifies the inspection; the inspector cannot (422, property verifiedBy). Submitting the run needs it where the pinned settings require second-person verification.',
        params: ZIdParams,
        body: ZInspectionVerification,
        response: { 200: ZRunResponse },
      },
    },
    async (request) => {
      const { facility, id } = request.params;
      await verifyInspection(db, actorOf(request), scopeOf(request.params), id, request.body);
      return { run: await getRun(db, facility, id) };
    },
  );
}
