import {
  ZMicrobialResultEdit,
  ZMicrobialResultsBody,
  ZRunMicrobialResponse,
} from '#core/schemas/verification.schemas.ts';
import { F, TAGS, RESOURCE, ZIdParams, runWrite, runWriteRoutes } from '../route-base.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { runMicrobial } from './microbial-read.ts';
import { editMicrobialResult, enterMicrobialResults } from './microbial-results.ts';
import { runRow, studyOf } from './runs.read.ts';

/** Microbial results of runs (core/verification/README.md, "Microbial results"). */
export function registerMicrobialRoutes({ app, db, permit }: AppContext): void {
  const r = typed(app);
  const modifier = permit(RESOURCE, 'Modify');

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

  runWriteRoutes(app, db, [
    runWrite({
      path: 'runs/:id/microbial-results',
      guard: modifier,
      summary: 'Enter microbial results, many at once; judged by the server',
      description:
        "Judged against the microbial limit policy pinned on the run at its start (the version in force then; pinned now when it has none): the surface limit of the room grade of the location's equipment (else the ungraded limit), the final-rinse limit in CFU/ml or the endotoxin limit in EU/ml; Pass, Alert (at or above the alert level) or Fail (above the limit). Refused (422 SampleChangesError, errors[].property = '<key>.<field>', nothing saved) when the policy does not use microbial limits, an endotoxin result when it sets no endotoxin limit, a location outside the run's plan, a method that is not a live microbial analytical method of the facility. A repeat (retest or re-swab) supersedes the result it repeats.",
      body: ZMicrobialResultsBody,
      write: async (actor, scope, id, body) => {
        await enterMicrobialResults(db, actor, scope, id, body.results);
        return id;
      },
    }),
    runWrite({
      path: 'microbial-results/:id',
      guard: modifier,
      summary: 'Correct a microbial result (reason + version); judged again; answers its run',
      body: ZMicrobialResultEdit,
      write: (actor, scope, id, body) => editMicrobialResult(db, actor, scope, id, body),
    }),
  ]);
}
