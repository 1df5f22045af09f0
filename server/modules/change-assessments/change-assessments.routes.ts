import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { ZId } from '#core/schemas/common.schemas.ts';
import {
  ZCancelBody,
  ZChangeAssessmentCreate,
  ZChangeAssessmentEdit,
  ZChangeAssessmentList,
  ZChangeAssessmentListQuery,
  ZChangeAssessmentResponse,
  ZChangeEditBody,
  ZChangeOp,
  ZChangeTarget,
  ZDecisionsBody,
  ZEvaluateBody,
  ZImpactPairsQuery,
  ZImpactPairsResponse,
  ZImpactQuery,
  ZImpactResponse,
  ZStagedChangeBody,
  ZUnstageQuery,
  type TChangeAssessment,
  type TImpactPair,
} from '#core/schemas/change-assessments.schemas.ts';
import { AppError } from '#core/errors/errors.ts';
import { limitStays } from '#core/assessments/criteria-sentence.ts';
import { registerReadExtras } from '#server/entities/read-extras.ts';
import { pageWindow } from '#server/db/paging.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf } from '#server/http/session-guard.ts';
import { idOfPath } from '#server/http/permission-guards.ts';
import { registerChangeAssessmentType } from './change-approval.ts';
import {
  assessmentSummaries,
  evaluatedItems,
  getChangeAssessment,
} from './change-assessments.read.ts';
import {
  cancelChangeAssessment,
  createChangeAssessment,
  decide,
  editChangeAssessment,
  editStagedChange,
  stageChange,
  stagedChangeOf,
  unstageChange,
} from './change-assessments.service.ts';
import { evaluateChangeAssessment } from './change-evaluate.ts';
import { registerImpactDownloadRoutes } from './impact-downloads.routes.ts';
import { registerChangeVersionRoutes } from './change-versions.routes.ts';
import { mocChangeAssessments } from './moc-link.ts';
import { stagedTarget } from './staged-targets.ts';

const ZIdParams = ZFacilityParams.extend({ id: ZId });
const ZChangeParams = ZIdParams.extend({ changeId: ZId });
const PATH = '/api/v2/plans/:plan/facilities/:facility/change-assessments';
const RESOURCE = 'FacilityCleaningEvaluation';

const scopeOf = (params: { plan: number; facility: number }) => ({
  planId: params.plan,
  facilityId: params.facility,
});

/** One page of a list, by pageNumber and pageLimit. */
function paged<T>(all: T[], query: { pageNumber: number; pageLimit: number }) {
  const { limit, offset } = pageWindow(query);
  return all.slice(offset, offset + limit);
}

type Params = { plan: number; facility: number; id: number; changeId?: number };
/** A write of one assessment: the service call and the body it takes. */
type Write<B> = (
  db: AppContext['db'],
  actor: ReturnType<typeof actorOf>,
  scope: { planId: number; facilityId: number },
  id: number,
  body: B,
) => Promise<TChangeAssessment>;

/** Change assessments (issue 11; core/assessments/README.md has the table of calls). */
export function registerChangeAssessmentRoutes(context: AppContext): void {
  const { app, db, permit, permitNamed } = context;
  const r = typed(app);
  const tags = ['change assessments'];
  registerChangeAssessmentType(db);
  registerReadExtras('mocRecords', mocChangeAssessments);
  registerImpactDownloadRoutes(context);
  registerChangeVersionRoutes(context);
  const reader = permit(RESOURCE, 'Get');
  const writer = permit(RESOURCE, 'Generate');
  // Staging, editing or unstaging a change needs the permission its direct edit needs (a guard
  // after the writer's, from the body or from the staged change it loads).
  const permitStaging = permitNamed((request) => {
    const body = request.body as { entity?: unknown; op?: unknown } | undefined;
    const entity = ZChangeTarget.safeParse(body?.entity);
    const op = ZChangeOp.safeParse(body?.op);
    // What names no target or operation is refused by validation, after the guards.
    if (!entity.success || !op.success) return null;
    const { resource, action } = stagedTarget(entity.data).permission(op.data);
    return [resource, action];
  });
  const permitChange = permitNamed(async (request, { facility }) => {
    const change = await stagedChangeOf(
      db,
      facility,
      idOfPath(request, 'id'),
      idOfPath(request, 'changeId'),
    );
    const { resource, action } = stagedTarget(change.entity).permission(change.op);
    return [resource, action];
  });
  const response = { 200: ZChangeAssessmentResponse };
  const answer = async <B>(
    request: Parameters<typeof actorOf>[0] & { params: Params },
    write: Write<B>,
    body: B,
  ) => ({
    changeAssessment: await write(
      db,
      actorOf(request),
      scopeOf(request.params),
      request.params.id,
      body,
    ),
  });

  r.get(
    PATH,
    {
      preHandler: reader,
      schema: {
        tags,
        summary: "The facility's change assessments, newest first",
        params: ZFacilityParams,
        querystring: ZChangeAssessmentListQuery,
        response: { 200: ZChangeAssessmentList },
      },
    },
    async (request) => {
      const { search, changeStatus, mocId } = request.query;
      const needle = search?.toLowerCase();
      const all = (
        await assessmentSummaries(db, request.params.facility, mocId ? { mocIds: [mocId] } : {})
      ).filter(
        (a) =>
          (!changeStatus || a.changeStatus === changeStatus) &&
          (!needle || `${a.number} ${a.title}`.toLowerCase().includes(needle)),
      );
      return { changeAssessments: paged(all, request.query), total: all.length };
    },
  );

  r.post(
    PATH,
    {
      preHandler: writer,
      schema: {
        tags,
        summary: 'Start a change assessment (CA-0001, … per facility), version 1 Being Built',
        params: ZFacilityParams,
        body: ZChangeAssessmentCreate,
        response,
      },
    },
    async (request) => ({
      changeAssessment: await createChangeAssessment(
        db,
        actorOf(request),
        scopeOf(request.params),
        request.body,
      ),
    }),
  );

  r.get(
    `${PATH}/:id`,
    {
      preHandler: reader,
      schema: { tags, summary: 'One change assessment', params: ZIdParams, response },
    },
    async (request) => ({
      changeAssessment: await getChangeAssessment(db, request.params.facility, request.params.id),
    }),
  );

  r.post(
    `${PATH}/:id`,
    {
      preHandler: writer,
      schema: {
        tags,
        summary: 'Edit the header (title, type, description, moc) while it is being built',
        params: ZIdParams,
        body: ZChangeAssessmentEdit,
        response,
      },
    },
    async (request) => answer(request, editChangeAssessment, request.body),
  );

  r.post(
    `${PATH}/:id/changes`,
    {
      preHandler: [writer, permitStaging],
      schema: {
        tags,
        summary: 'Stage a create, edit, archive or restore (changes nothing until approved)',
        description:
          'The change is tried on the real write path after the changes staged before it and rolled back: it is refused with exactly the error the direct edit would give. Staging needs the permission the direct edit needs.',
        params: ZIdParams,
        body: ZStagedChangeBody,
        response,
      },
    },
    async (request) => answer(request, stageChange, request.body),
  );

  r.post(
    `${PATH}/:id/changes/:changeId`,
    {
      preHandler: [writer, permitChange],
      schema: {
        tags,
        summary: 'Change the values of a staged change (checked again, from the record as now)',
        params: ZChangeParams,
        body: ZChangeEditBody,
        response,
      },
    },
    async (request) => {
      return answer(request, editStagedChange, {
        ...request.body,
        changeId: request.params.changeId,
      });
    },
  );

  r.delete(
    `${PATH}/:id/changes/:changeId`,
    {
      preHandler: [writer, permitChange],
      schema: {
        tags,
        summary: 'Unstage a change, with a reason',
        params: ZChangeParams,
        querystring: ZUnstageQuery,
        response,
      },
    },
    async (request) => {
      return answer(request, unstageChange, {
        ...request.query,
        changeId: request.params.changeId,
      });
    },
  );

  r.post(
    `${PATH}/:id/evaluate`,
    {
      preHandler: writer,
      schema: {
        tags,
        summary: 'Evaluate the impact of the change set on every limit (synchronous)',
        params: ZIdParams,
        body: ZEvaluateBody,
        response,
      },
    },
    async (request) => answer(request, evaluateChangeAssessment, request.body),
  );

  r.get(
    `${PATH}/:id/impact`,
    {
      preHandler: reader,
      schema: {
        tags,
        summary: 'The impact items of the latest evaluation, with their decisions',
        params: ZIdParams,
        querystring: ZImpactQuery,
        response: { 200: ZImpactResponse },
      },
    },
    async (request) => {
      const { facility, id } = request.params;
      const evaluated = await evaluatedOrRefuse(facility, id);
      const { kind, undecided, search } = request.query;
      const needle = search?.toLowerCase();
      const items = evaluated.items.filter(
        (i) =>
          (!kind || i.kind === kind) &&
          (!undecided || i.decision === null) &&
          (!needle || `${i.subject} ${i.summary}`.toLowerCase().includes(needle)),
      );
      return {
        items: paged(items, request.query),
        total: items.length,
        summary: evaluated.summary,
      };
    },
  );

  r.get(
    `${PATH}/:id/impact/pairs`,
    {
      preHandler: reader,
      schema: {
        tags,
        summary:
          'The pairs whose limits move, or that are new or gone (largest change first), then those whose limits stay while a criterion moves, each with its criteria before and after',
        params: ZIdParams,
        querystring: ZImpactPairsQuery,
        response: { 200: ZImpactPairsResponse },
      },
    },
    async (request) => {
      const { facility, id } = request.params;
      const [row] = await db.query<{ pairs: TImpactPair[] }>(
        `select pairs from change_assessment_evaluations
          where assessment_id = $1 and facility_id = $2`,
        [id, facility],
      );
      if (!row) await evaluatedOrRefuse(facility, id);
      const { previous, search, stays } = request.query;
      const needle = search?.toLowerCase();
      const pairs = (row?.pairs ?? []).filter(
        (p) =>
          (!previous || p.previous === previous) &&
          (!stays || limitStays(p)) &&
          (!needle || `${p.previous} ${p.next}`.toLowerCase().includes(needle)),
      );
      return { pairs: paged(pairs, request.query), total: pairs.length };
    },
  );

  r.post(
    `${PATH}/:id/decisions`,
    {
      preHandler: writer,
      schema: {
        tags,
        summary: 'A decision with a justification per impact item (all needed before submit)',
        params: ZIdParams,
        body: ZDecisionsBody,
        response,
      },
    },
    async (request) => answer(request, decide, request.body),
  );

  r.post(
    `${PATH}/:id/cancel`,
    {
      preHandler: writer,
      schema: {
        tags,
        summary: 'Cancel, with a reason, until approved: nothing staged is ever applied',
        params: ZIdParams,
        body: ZCancelBody,
        response,
      },
    },
    async (request) => answer(request, cancelChangeAssessment, request.body),
  );

  /** The latest evaluation; 404 for an assessment of another facility, 409 before any. */
  async function evaluatedOrRefuse(facilityId: number, id: number) {
    await getChangeAssessment(db, facilityId, id);
    const evaluated = await evaluatedItems(db, facilityId, id);
    if (!evaluated)
      throw new AppError('TransactionLocked', 'The change has not been evaluated yet');
    return evaluated;
  }
}
