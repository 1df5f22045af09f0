import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { ZPage, ZId } from '#core/schemas/common.schemas.ts';
import {
  ZCreateOperatorRequest,
  ZOperator,
  ZOperatorArchiveRequest,
  ZOperatorListQuery,
  ZOperatorName,
  ZUpdateOperatorRequest,
} from '#core/schemas/operators.schemas.ts';
import { idempotentCreate } from '#server/http/idempotency.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { pageOf } from '#server/db/paging.ts';
import { actorOf } from '#server/http/session-guard.ts';
import type { FacilityScope } from '../roles/roles.service.ts';
import {
  createOperator,
  listOperators,
  operatorName,
  setOperatorArchived,
  updateOperator,
} from './operators.service.ts';

const F = '/api/v2/plans/:plan/facilities/:facility';
const TAGS = ['operators'];
const ZOperatorParams = ZFacilityParams.extend({ id: ZId });

// The permission map of spec §6 has no Operator resource. Operators are people on the floor
// recorded beside users, so the User permission in the facility of the path governs them.
const PERMISSION_NOTE =
  'Operators are facility-scoped people who do not sign in. The permission map has no Operator resource: these calls need the User permission in the facility of the path (Get, Add, Modify, Archive).';

function scopeOf(
  request: FastifyRequest,
  params: { plan: number; facility: number },
): FacilityScope {
  return { actor: actorOf(request), planId: params.plan, facilityId: params.facility };
}

export function registerOperatorRoutes({ app, db, permit }: AppContext): void {
  const r = typed(app);
  const canGet = permit('User', 'Get');

  r.get(
    `${F}/operator`,
    {
      preHandler: canGet,
      schema: {
        tags: TAGS,
        summary: 'List operators of the facility (User Get)',
        description: `${PERMISSION_NOTE} Search covers names, Operator ID and department; \`archived=true\` lists archived operators.`,
        params: ZFacilityParams,
        querystring: ZOperatorListQuery,
        response: { 200: ZPage(ZOperator) },
      },
    },
    async (request) => {
      const { rows, total } = await listOperators(
        db,
        scopeOf(request, request.params),
        request.query,
      );
      return pageOf(rows, total, request.query);
    },
  );

  r.get(
    `${F}/operator/name/:operatorId`,
    {
      preHandler: canGet,
      schema: {
        tags: TAGS,
        summary: "An active operator's name by their Operator ID (User Get)",
        description: PERMISSION_NOTE,
        params: ZFacilityParams.extend({ operatorId: z.string().trim().min(1).max(100) }),
        response: { 200: ZOperatorName },
      },
    },
    async (request) =>
      operatorName(db, scopeOf(request, request.params), request.params.operatorId),
  );

  r.post(
    `${F}/operator`,
    {
      preHandler: permit('User', 'Add'),
      schema: {
        tags: TAGS,
        summary: 'Create an operator (User Add)',
        description: PERMISSION_NOTE,
        params: ZFacilityParams,
        body: ZCreateOperatorRequest,
        response: { 200: ZOperator },
      },
    },
    async (request) =>
      idempotentCreate(db, request, (tx) =>
        createOperator(tx, scopeOf(request, request.params), request.body),
      ),
  );

  r.post(
    `${F}/operator/:id`,
    {
      preHandler: permit('User', 'Modify'),
      schema: {
        tags: TAGS,
        summary: 'Edit an operator with a reason and the version (User Modify)',
        description: PERMISSION_NOTE,
        params: ZOperatorParams,
        body: ZUpdateOperatorRequest,
        response: { 200: ZOperator },
      },
    },
    async (request) =>
      updateOperator(db, scopeOf(request, request.params), request.params.id, request.body),
  );

  const canArchive = permit('User', 'Archive');
  r.put(
    `${F}/operator/:id`,
    {
      preHandler: canArchive,
      schema: {
        tags: TAGS,
        summary: 'Archive (archive: true) or restore (unArchive: true) an operator (User Archive)',
        description: PERMISSION_NOTE,
        params: ZOperatorParams,
        body: ZOperatorArchiveRequest,
        response: { 200: ZOperator },
      },
    },
    async (request) =>
      setOperatorArchived(
        db,
        scopeOf(request, request.params),
        request.params.id,
        request.body.archive === true,
        request.body.reason,
      ),
  );
}
