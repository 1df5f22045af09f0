import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import {
  ZCleaningAssessmentList,
  ZCleaningAssessmentResponse,
  ZFromLastQuery,
  ZFromLastResponse,
  ZPriorAssessmentQuery,
  ZPriorAssessmentResponse,
  ZStartAssessmentBody,
} from '#core/schemas/cleaning-assessments.schemas.ts';
import { ZIdParams, ZListQuery } from '#core/schemas/common.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf } from '#server/http/session-guard.ts';
import { registerCleaningAssessmentType } from './cleaning-assessment.job.ts';
import {
  enqueueCleaningAssessment,
  registerCleaningAssessmentJob,
} from './cleaning-assessment-start.ts';
import {
  getAssessment,
  listAssessments,
  priorAssessment,
  startAssessment,
} from './cleaning-assessments.service.ts';
import { changesFromLast } from './from-last.ts';

const F = '/api/v2/plans/:plan/facilities/:facility';
const tags = ['Cleaning assessments'];
const ZParams = ZFacilityParams.extend(ZIdParams.shape);

/** Facility cleaning assessments (spec §7 cleaningEvaluation; core/assessments/README.md). */
export function registerCleaningAssessmentRoutes({ app, db, permit }: AppContext): void {
  const r = typed(app);
  registerCleaningAssessmentType();
  registerCleaningAssessmentJob();

  r.post(
    `${F}/cleaning-assessments`,
    {
      preHandler: permit('FacilityCleaningEvaluation', 'Generate'),
      schema: {
        tags,
        summary: 'Start a cleaning assessment of the whole facility',
        description:
          'Inserts the assessment (numbered FCE-0001 on in the facility, progress `queued`) and starts its background job in the same transaction, and answers at once. The job reads the data and the limits in force, and reports its stage on the record (`progress`: Reading master data, Computing limits, Checking coverage, Comparing with the prior assessment, Creating qualification tasks); poll `GET cleaning-assessments/{id}` until `progress.state` is `done` (the `result` is then set and the record is version 1, Being Built, to be signed like any controlled record) or `failed` (with `progress.error`). Needs FacilityCleaningEvaluation Generate.',
        params: ZFacilityParams,
        body: ZStartAssessmentBody,
        response: { 200: ZCleaningAssessmentResponse },
      },
    },
    async (request) => {
      const cleaningAssessment = await startAssessment(
        db,
        actorOf(request),
        { planId: request.params.plan, facilityId: request.params.facility },
        request.body.reason,
        enqueueCleaningAssessment,
      );
      return { cleaningAssessment };
    },
  );

  r.get(
    `${F}/cleaning-assessments`,
    {
      preHandler: permit('FacilityCleaningEvaluation', 'Get'),
      schema: {
        tags,
        summary: 'The cleaning assessments of the facility, newest first',
        description:
          'Paged by `pageNumber` and `pageLimit`; each with its progress and, once done, the counts of its coverage matrix (not the whole result). Needs FacilityCleaningEvaluation Get.',
        params: ZFacilityParams,
        querystring: ZListQuery,
        response: { 200: ZCleaningAssessmentList },
      },
    },
    async (request) => listAssessments(db, request.params.facility, request.query),
  );

  r.get(
    `${F}/cleaning-assessments/from-last`,
    {
      preHandler: permit('FacilityCleaningEvaluation', 'Get'),
      schema: {
        tags,
        summary: 'The changes to GMP data since the previous assessment',
        description:
          'The audit rows of the facility’s GMP data (master data, historical studies, limit policies and their approvals, sampling) since the latest completed assessment (`since`, `priorId`); with `id`, those between the completed assessment before that one and its start. Newest first, paged. Each names the change assessment whose approval wrote it (its reason starts with the change assessment’s number), or null. Needs FacilityCleaningEvaluation Get.',
        params: ZFacilityParams,
        querystring: ZFromLastQuery,
        response: { 200: ZFromLastResponse },
      },
    },
    async (request) => changesFromLast(db, request.params.facility, request.query),
  );

  r.get(
    `${F}/cleaning-assessments/:id`,
    {
      preHandler: permit('FacilityCleaningEvaluation', 'Get'),
      schema: {
        tags,
        summary: 'One cleaning assessment, with its result once done',
        description:
          'The record with its controlled status (spec §4), its progress and, once the job is done, its result: groups and representatives, the worst case per train with its reason, the coverage matrix with its evidence, counts, and the difference from the prior assessment. Needs FacilityCleaningEvaluation Get.',
        params: ZParams,
        response: { 200: ZCleaningAssessmentResponse },
      },
    },
    async (request) => ({
      cleaningAssessment: await getAssessment(db, request.params.facility, request.params.id),
    }),
  );

  r.get(
    `${F}/prior_assessment`,
    {
      preHandler: permit('FacilityCleaningEvaluation', 'Get'),
      schema: {
        tags,
        summary: 'The previous completed cleaning assessment',
        description:
          'The completed assessment before the latest completed one, or with `id` the completed one before that assessment; null when there is none. Needs FacilityCleaningEvaluation Get.',
        params: ZFacilityParams,
        querystring: ZPriorAssessmentQuery,
        response: { 200: ZPriorAssessmentResponse },
      },
    },
    async (request) => ({
      priorAssessment: await priorAssessment(db, request.params.facility, request.query.id),
    }),
  );
}
