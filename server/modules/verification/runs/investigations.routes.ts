import {
  ZInvestigationCreate,
  ZInvestigationEdit,
  ZInvestigationResponse,
} from '#core/schemas/investigation.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf } from '#server/http/session-guard.ts';
import { F, TAGS, RESOURCE, ZIdParams, scopeOf } from '../route-base.ts';
import { registerInvestigationType } from './investigation-approval.ts';
import { getInvestigation } from './investigations.read.ts';
import { editInvestigation, openInvestigation } from './investigations.service.ts';
import { NEEDS_INVESTIGATION } from './oos-rule.ts';

/** Laboratory investigations of out-of-specification results (core/verification/README.md). */
export function registerInvestigationRoutes({ app, db, permit }: AppContext): void {
  const r = typed(app);
  registerInvestigationType();
  const response = { 200: ZInvestigationResponse };

  r.get(
    `${F}/investigations/:id`,
    {
      preHandler: permit(RESOURCE, 'Get'),
      schema: {
        tags: TAGS,
        summary: 'One laboratory investigation of an out-of-specification result',
        params: ZIdParams,
        response,
      },
    },
    async (request) => ({
      investigation: await getInvestigation(db, request.params.facility, request.params.id),
    }),
  );

  r.post(
    `${F}/results/:id/investigations`,
    {
      preHandler: permit(RESOURCE, 'Modify'),
      schema: {
        tags: TAGS,
        summary: 'Open the laboratory investigation (phase I) of an out-of-specification result',
        description: `INV-0001 per facility, one per result, on a failing result (or one at or above the action level where the verification settings' investigateAboveAction says so) of a run not yet submitted. '${NEEDS_INVESTIGATION}': a retest or re-swab of such a result is accepted only once QA approved (POST signatures, documentType Investigation, meaning 'Approve investigation') an investigation that found an assignable laboratory cause.`,
        params: ZIdParams,
        body: ZInvestigationCreate,
        response,
      },
    },
    async (request) => {
      const { facility, id } = request.params;
      const created = await openInvestigation(
        db,
        actorOf(request),
        scopeOf(request.params),
        id,
        request.body,
      );
      return { investigation: await getInvestigation(db, facility, created) };
    },
  );

  r.post(
    `${F}/investigations/:id`,
    {
      preHandler: permit(RESOURCE, 'Modify'),
      schema: {
        tags: TAGS,
        summary: 'Write the investigation (reason + version) until it is submitted for approval',
        params: ZIdParams,
        body: ZInvestigationEdit,
        response,
      },
    },
    async (request) => {
      const { facility, id } = request.params;
      await editInvestigation(db, actorOf(request), scopeOf(request.params), id, request.body);
      return { investigation: await getInvestigation(db, facility, id) };
    },
  );
}
