import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { ZPage } from '#core/schemas/common.schemas.ts';
import {
  ZStudy,
  ZStudyClose,
  ZStudyCreate,
  ZStudyEdit,
  ZStudyListQuery,
} from '#core/schemas/verification.schemas.ts';
import { pageOf } from '#server/db/paging.ts';
import { RESOURCE, ZIdParams, scopeOf } from '../route-base.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf } from '#server/http/session-guard.ts';
import './protocol-checks.ts';
import { getStudy, listStudies } from './studies.read.ts';
import { closeStudy, createStudy, editStudy } from './studies.service.ts';
import { registerStudyType } from './study-type.ts';

const PATH = '/api/v2/plans/:plan/facilities/:facility/studies';

/** Studies (issue 12; core/verification/README.md). Protocols are the record mechanism's. */
export function registerStudyRoutes(context: AppContext): void {
  const { app, db, permit } = context;
  const r = typed(app);
  const tags = ['studies'];
  registerStudyType();
  const response = { 200: ZStudy };

  r.get(
    PATH,
    {
      preHandler: permit(RESOURCE, 'Get'),
      schema: {
        tags,
        summary: "The facility's studies, newest first",
        description:
          'Filtered by outcome (Validated, On Going, Failed), study type and overdue (Validated studies past their periodic verification, as the dashboard counts them); search looks in the number, title and protocol name.',
        params: ZFacilityParams,
        querystring: ZStudyListQuery,
        response: { 200: ZPage(ZStudy) },
      },
    },
    async (request) => {
      const { data, total } = await listStudies(db, request.params.facility, request.query);
      return pageOf(data, total, request.query);
    },
  );

  r.post(
    PATH,
    {
      preHandler: permit(RESOURCE, 'Add'),
      schema: {
        tags,
        summary: 'Start a study (ST-0001, … per facility) from an approved protocol',
        description:
          "Pins the protocol's version in force (number and content) and the limits snapshot (the protocol's, else the facility's latest). Refused (409) while the protocol has no approved version. The origin is none, an Accepted qualification task of the facility, or a change assessment of the facility. The study is a controlled record (Study), version 1 Being Built.",
        params: ZFacilityParams,
        body: ZStudyCreate,
        response,
      },
    },
    async (request) => createStudy(db, actorOf(request), scopeOf(request.params), request.body),
  );

  r.get(
    `${PATH}/:id`,
    {
      preHandler: permit(RESOURCE, 'Get'),
      schema: {
        tags,
        summary: 'One study, with its outcome, run count and controlled state',
        params: ZIdParams,
        response,
      },
    },
    async (request) => getStudy(db, request.params.facility, request.params.id),
  );

  r.post(
    `${PATH}/:id`,
    {
      preHandler: permit(RESOURCE, 'Modify'),
      schema: {
        tags,
        summary: 'Edit the title or description (reason and version)',
        description:
          'Refused while the study is being reviewed or approved, and once it is closed; an edit after approval starts the next version.',
        params: ZIdParams,
        body: ZStudyEdit,
        response,
      },
    },
    async (request) =>
      editStudy(db, actorOf(request), scopeOf(request.params), request.params.id, request.body),
  );

  r.post(
    `${PATH}/:id/close`,
    {
      preHandler: permit(RESOURCE, 'Modify'),
      schema: {
        tags,
        summary: 'Close the study (reason and version): Failed unless it has validated',
        params: ZIdParams,
        body: ZStudyClose,
        response,
      },
    },
    async (request) =>
      closeStudy(db, actorOf(request), scopeOf(request.params), request.params.id, request.body),
  );
}
