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
import { NEEDS_INVESTIGATION, type ResultTable } from './oos-rule.ts';

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

  /** The one way to open an investigation, on a sample result or on a microbial result. */
  const openRoute = (path: string, table: ResultTable, summary: string, description: string) =>
    r.post(
      `${F}/${path}/:id/investigations`,
      {
        preHandler: permit(RESOURCE, 'Modify'),
        schema: {
          tags: TAGS,
          summary,
          description,
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
          table,
        );
        return { investigation: await getInvestigation(db, facility, created) };
      },
    );
  openRoute(
    'results',
    'sample_results',
    'Open the laboratory investigation (phase I) of an out-of-specification result',
    `INV-0001 per facility, one per result, on a failing result (or one at or above the action level where the verification settings' investigateAboveAction says so) of a run not yet submitted. '${NEEDS_INVESTIGATION}': a retest or re-swab of such a result is accepted only once QA approved (POST signatures, documentType Investigation, meaning 'Approve investigation') an investigation that found an assignable laboratory cause.`,
  );
  openRoute(
    'microbial-results',
    'microbial_results',
    'Open the laboratory investigation (phase I) of an out-of-specification microbial result',
    `The same record and rule as for a sample result: on a microbial result judged Fail (or Alert, at or above the microbial policy's alert level, where the verification settings' investigateAboveAction says so) of a run not yet submitted; a retest or re-swab of it is accepted only once QA approved an investigation that found an assignable laboratory cause.`,
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
