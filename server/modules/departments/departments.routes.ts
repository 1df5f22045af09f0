import type { FastifyRequest } from 'fastify';
import { ZIdParams, ZListQuery, ZPage } from '#core/schemas/common.schemas.ts';
import {
  ZCreateDepartmentRequest,
  ZDepartment,
  ZUpdateDepartmentRequest,
} from '#core/schemas/departments.schemas.ts';
import { idempotentCreate } from '#server/http/idempotency.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { pageOf } from '#server/db/paging.ts';
import { actorOf, sessionOf } from '#server/http/session-guard.ts';
import type { AdminScope } from '../users-admin/users-admin.service.ts';
import { createDepartment, listDepartments, updateDepartment } from './departments.service.ts';

const TAGS = ['departments'];

function scopeOf(request: FastifyRequest): AdminScope {
  const { user } = sessionOf(request);
  return { actor: actorOf(request), planId: user.plan_id, selfId: user.id };
}

/** Departments group users across the plan: the Department permission in any facility of it. */
export function registerDepartmentRoutes({ app, db, permitPlan }: AppContext): void {
  const r = typed(app);

  r.get(
    '/api/v2/departments',
    {
      preHandler: permitPlan('Department', 'Get'),
      schema: {
        tags: TAGS,
        summary: 'List departments (Department Get)',
        querystring: ZListQuery,
        response: { 200: ZPage(ZDepartment) },
      },
    },
    async (request) => {
      const { rows, total } = await listDepartments(db, scopeOf(request).planId, request.query);
      return pageOf(rows, total, request.query);
    },
  );

  r.post(
    '/api/v2/departments',
    {
      preHandler: permitPlan('Department', 'Add'),
      schema: {
        tags: TAGS,
        summary: 'Create a department (Department Add)',
        body: ZCreateDepartmentRequest,
        response: { 200: ZDepartment },
      },
    },
    async (request) =>
      idempotentCreate(db, request, (tx) =>
        createDepartment(tx, scopeOf(request), request.body.name),
      ),
  );

  r.post(
    '/api/v2/departments/:id',
    {
      preHandler: permitPlan('Department', 'Modify'),
      schema: {
        tags: TAGS,
        summary: 'Rename a department, with a reason and the version (Department Modify)',
        params: ZIdParams,
        body: ZUpdateDepartmentRequest,
        response: { 200: ZDepartment },
      },
    },
    async (request) => updateDepartment(db, scopeOf(request), request.params.id, request.body),
  );
}
