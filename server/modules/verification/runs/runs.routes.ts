import {
  ZDeviationCreate,
  ZDeviationEdit,
  ZResultEdit,
  ZResultsBody,
  ZRunCreate,
  ZRunEdit,
  ZRunList,
  ZRunResponse,
} from '#core/schemas/verification.schemas.ts';
import { F, TAGS, RESOURCE, ZIdParams, runWrite, runWriteRoutes } from '../route-base.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { createDeviation, editDeviation, runOfDeviation } from './deviations.ts';
import { registerDeviationType } from './deviation-closure.ts';
import { registerInspectionRoutes } from './inspection.routes.ts';
import { registerInvestigationRoutes } from './investigations.routes.ts';
import { OPEN_DEVIATION, registerRunType } from './run-approval.ts';
import { editResult } from './result-edit.ts';
import { enterResultsAndRead } from './results.ts';
import { getRun, listRuns } from './runs.read.ts';
import { createRunAndRead, editRun } from './runs.service.ts';

/** Runs of studies, their sample results and deviations (core/verification/README.md). */
export function registerRunRoutes(context: AppContext): void {
  const { app, db, permit } = context;
  const r = typed(app);
  registerRunType();
  registerDeviationType();
  registerInspectionRoutes(context);
  registerInvestigationRoutes(context);
  const reader = permit(RESOURCE, 'Get');
  const modifier = permit(RESOURCE, 'Modify');
  const response = { 200: ZRunResponse };
  const answer = async (facilityId: number, runId: number) => ({
    run: await getRun(db, facilityId, runId),
  });

  r.get(
    `${F}/studies/:id/runs`,
    {
      preHandler: reader,
      schema: {
        tags: TAGS,
        summary: 'The runs of a study, in sequence',
        params: ZIdParams,
        response: { 200: ZRunList },
      },
    },
    async (request) => ({
      runs: await listRuns(db, request.params.facility, request.params.id),
    }),
  );

  r.get(
    `${F}/runs/:id`,
    {
      preHandler: reader,
      schema: {
        tags: TAGS,
        summary:
          'One run: its sampling plan with limits, results, deviations, verdict and release flag',
        params: ZIdParams,
        response,
      },
    },
    async (request) => answer(request.params.facility, request.params.id),
  );

  r.get(
    `${F}/deviations/:id`,
    {
      preHandler: reader,
      schema: {
        tags: TAGS,
        summary: 'The run a deviation belongs to, with the deviation among its deviations',
        description:
          "For a link to a deviation (My approvals lists a deviation's closure awaiting approval): the run screen shows it.",
        params: ZIdParams,
        response,
      },
    },
    async (request) =>
      answer(
        request.params.facility,
        await runOfDeviation(db, request.params.facility, request.params.id),
      ),
  );

  runWriteRoutes(app, db, [
    runWrite({
      path: 'studies/:id/runs',
      guard: permit(RESOURCE, 'Add'),
      summary: 'Add run N to a study (Not Started); refused on a closed study',
      body: ZRunCreate,
      write: (actor, scope, studyId, body) =>
        createRunAndRead(db, actor, scope, studyId, body.reason),
    }),
    runWrite({
      path: 'runs/:id',
      guard: modifier,
      summary: 'Record the cleaning event (reason + version) until the run is submitted',
      description: `Operators are operators of the facility, the procedure one of its cleaning procedures. Submitting the run (POST signatures, documentType Run) needs the visual inspection (POST runs/{id}/inspection) where the pinned cleaning inspection settings require one, a result at every planned location or a deviation explaining it, no Open deviation ('${OPEN_DEVIATION}'), and a decision on each failure: a deviation naming each failed result or its location (or one invalidating the run), and one of the whole run for a failed visual inspection ('No decision on the failed result at Gasket: record a deviation for it'). A submitted run is 409 TransactionLocked.`,
      body: ZRunEdit,
      write: async (actor, scope, id, body) => {
        await editRun(db, actor, scope, id, body);
        return id;
      },
    }),
    runWrite({
      path: 'runs/:id/results',
      guard: modifier,
      summary: 'Enter sample results, many at once; judged by the server',
      description:
        "Every problem of every row is reported at once as 422 SampleChangesError, errors[].property = '<key>.<field>', and nothing is saved. A batch number already used by a result (a retest keeps its original's) or a sample is 409 DuplicateBatchNumber. The recovery, limit (from the study's limits snapshot), percent of limit and pass/fail are computed here. A repeat (retest or re-swab) supersedes the result it repeats; a failing result only once QA approved its laboratory investigation with an assignable cause (POST results/{id}/investigations), and a retest then follows the facility's retest rule (verification settings maxRetests, retestByOtherAnalyst), else 422 on '<key>.repeats'.",
      body: ZResultsBody,
      write: (actor, scope, id, body) => enterResultsAndRead(db, actor, scope, id, body.results),
    }),
    runWrite({
      path: 'results/:id',
      guard: modifier,
      summary: 'Correct a sample result (reason + version); judged again; answers its run',
      body: ZResultEdit,
      write: (actor, scope, id, body) => editResult(db, actor, scope, id, body),
    }),
    runWrite({
      path: 'runs/:id/deviations',
      guard: modifier,
      summary: 'Raise a deviation on the run (DEV-0001 per facility); answers the run',
      body: ZDeviationCreate,
      write: async (actor, scope, id, body) => {
        await createDeviation(db, actor, scope, id, body);
        return id;
      },
    }),
    runWrite({
      path: 'deviations/:id',
      guard: modifier,
      summary: 'Edit or reopen a deviation (reason + version); it closes only with QA approval',
      description:
        "A deviation is a controlled record (documentType Deviation): its closure is proposed with POST signatures action Submit (root cause and conclusion required, 422 otherwise) and it closes when an eligible signer of the Deviation approval policy signs Approve (meaning 'Approve closure'); neither its author nor the proposer may, unless the policy allows self-approval. Until then it stays Open; while awaiting approval it cannot be edited (409). status 'Closed' here is 422; 'Open', or any change, reopens a closed deviation.",
      body: ZDeviationEdit,
      write: (actor, scope, id, body) => editDeviation(db, actor, scope, id, body),
    }),
  ]);
}
