import {
  ZMicrobialResultEdit,
  ZMicrobialResultsBody,
  ZRunMicrobialResponse,
  ZRunResponse,
} from '../../../../core/schemas/verification.schemas.ts';
import { F, TAGS, RESOURCE, ZIdParams, scopeOf } from '../route-base.ts';
import { typed, type AppContext } from '../../../http/app-context.ts';
import { actorOf } from '../../../http/session-guard.ts';
import { runMicrobial } from './microbial-read.ts';
import { editMicrobialResult, enterMicrobialResults } from './microbial-results.ts';
import { getRun, runRow, studyOf } from './runs.read.ts';

/** Microbial results of runs (core/verification/README.md, "Microbial results"). */
export function registerMicrobialRoutes({ app, db, permit }: AppContext): void {
  const r = typed(app);
  const modifier = permit(RESOURCE, 'Modify');
  const response = { 200: ZRunResponse };
  const answer = async (facilityId: number, runId: number) => ({
    run: await getRun(db, facilityId, runId),
  });

  r.get(
    `${F}/runs/:id/microbial`,
    {
      preHandler: permit(RESOURCE, 'Get'),
      schema: {
        tags: TAGS,
        summary:
          "A run's microbial side: the microbial limit policy it is judged against, the protocol's microbial sampling with limits, the locations and the results",
        params: ZIdParams,
        response: { 200: ZRunMicrobialResponse },
      },
    },
    async (request) => {
      const { facility, id } = request.params;
      const run = await runRow(db, facility, id);
      const study = await studyOf(db, facility, run.study_id);
      return { microbial: await runMicrobial(db, facility, run, study) };
    },
  );

  r.post(
    `${F}/runs/:id/microbial-results`,
    {
      preHandler: modifier,
      schema: {
        tags: TAGS,
        summary: 'Enter microbial results, many at once; judged by the server',
        description:
          "Judged against the microbial limit policy pinned on the run at its start (the version in force then; pinned now when it has none): the surface limit of the room grade of the location's equipment (else the ungraded limit), the final-rinse limit in CFU/ml or the endotoxin limit in EU/ml; Pass, Alert (at or above the alert level) or Fail (above the limit). Refused (422 SampleChangesError, errors[].property = '<key>.<field>', nothing saved) when the policy does not use microbial limits, an endotoxin result when it sets no endotoxin limit, a location outside the run's plan, a method that is not a live microbial analytical method of the facility. A repeat (retest or re-swab) supersedes the result it repeats.",
        params: ZIdParams,
        body: ZMicrobialResultsBody,
        response,
      },
    },
    async (request) => {
      const { facility, id } = request.params;
      await enterMicrobialResults(
        db,
        actorOf(request),
        scopeOf(request.params),
        id,
        request.body.results,
      );
      return answer(facility, id);
    },
  );

  r.post(
    `${F}/microbial-results/:id`,
    {
      preHandler: modifier,
      schema: {
        tags: TAGS,
        summary: 'Correct a microbial result (reason + version); judged again; answers its run',
        params: ZIdParams,
        body: ZMicrobialResultEdit,
        response,
      },
    },
    async (request) => {
      const { facility, id } = request.params;
      const runId = await editMicrobialResult(
        db,
        actorOf(request),
        scopeOf(request.params),
        id,
        request.body,
      );
      return answer(facility, runId);
    },
  );
}
