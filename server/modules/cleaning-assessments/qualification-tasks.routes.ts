import { AppError } from '#core/errors/errors.ts';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { ZId } from '#core/schemas/common.schemas.ts';
import {
  ZTaskAction,
  ZTaskList,
  ZTaskListQuery,
  ZTaskResponse,
} from '#core/schemas/cleaning-assessments.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf } from '#server/http/session-guard.ts';
import { decideTask, TASK_MEANINGS } from './qualification-task-decision.ts';
import { listTasks, TASK_DUE_DAYS } from './qualification-tasks.ts';

const F = '/api/v2/plans/:plan/facilities/:facility';
const TAGS = ['qualification tasks'];

/** Qualification tasks (spec §7): the list, the tasks of one train, and a task's decision. */
export function registerQualificationTaskRoutes({ app, db, config, permit }: AppContext): void {
  const r = typed(app);

  r.get(
    `${F}/qualification-task`,
    {
      preHandler: permit('QualificationTask', 'Get'),
      schema: {
        tags: TAGS,
        summary: "The facility's qualification tasks, paged",
        description: `Each gap of a completed cleaning assessment (a product × train cell not covered by a study, or covered by a study judged against a limit that has tightened since) is an Open task proposing the study that closes it (New Product Introduction, or Verification for a tightened limit), due ${TASK_DUE_DAYS} days after the assessment. An Open task is carried over to each later assessment that finds the same gap, so evaluationId filters the tasks an assessment found or carried over. Open tasks first by due date unless sortBy (dueDate, product, train, status, proposedStudyType) says otherwise; search matches the product, the train and the scope.`,
        params: ZFacilityParams,
        querystring: ZTaskListQuery,
        response: { 200: ZTaskList },
      },
    },
    async (request) => listTasks(db, request.params.facility, request.query),
  );

  r.get(
    `${F}/qualification-task/entity/:caseStudyId`,
    {
      preHandler: permit('QualificationTask', 'Get'),
      schema: {
        tags: TAGS,
        summary: 'The qualification tasks of one train (case study), optionally of one assessment',
        params: ZFacilityParams.extend({ caseStudyId: ZId }),
        querystring: ZTaskListQuery,
        response: { 200: ZTaskList },
      },
    },
    async (request) => {
      const { facility, caseStudyId } = request.params;
      const [train] = await db.query<{ id: number }>(
        'select id from productions where facility_id = $1 and id = $2',
        [facility, caseStudyId],
      );
      if (!train)
        throw new AppError('NotFoundError', 'No such production (train) in this facility');
      return listTasks(db, facility, { ...request.query, trainId: caseStudyId });
    },
  );

  r.post(
    `${F}/qualification-task/task/:id`,
    {
      preHandler: permit('QualificationTask', 'Modify'),
      schema: {
        tags: TAGS,
        summary: 'Accept or dismiss a qualification task, signed with your password',
        description: `Accepting (meaning '${TASK_MEANINGS.accept}') may set the study type and the due date; the study is created from the accepted task. Dismissing (meaning '${TASK_MEANINGS.dismiss}') needs a justification. Both are electronic signatures: the signer re-enters their own password (a wrong one is 422 on password and counts toward the lockout). A task is decided once (409 TransactionLocked after), from the version it was read at (409 VersionConflictError when stale).`,
        params: ZFacilityParams.extend({ id: ZId }),
        body: ZTaskAction,
        response: { 200: ZTaskResponse },
      },
    },
    async (request) => {
      const { plan, facility, id } = request.params;
      return {
        qualificationTask: await decideTask(
          db,
          config,
          actorOf(request),
          { planId: plan, facilityId: facility },
          id,
          request.body,
        ),
      };
    },
  );
}
