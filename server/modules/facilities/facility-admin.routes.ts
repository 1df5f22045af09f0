import type { FastifyRequest } from 'fastify';
import { ZFacilityParams, ZPlanParams } from '#core/schemas/auth.schemas.ts';
import { ZId, ZListQuery, ZPage } from '#core/schemas/common.schemas.ts';
import {
  ZCreateFacilityGroupRequest,
  ZCreateFacilityRequest,
  ZFacilityGroupRecord,
  ZFacilityRecord,
  ZLicenseChangeRequest,
  ZUpdateFacilityGroupRequest,
  ZUpdateFacilityRequest,
} from '#core/schemas/facilities.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { idempotentCreate } from '#server/http/idempotency.ts';
import { actorOf, assertPlan, sessionOf } from '#server/http/session-guard.ts';
import {
  changeLicense,
  createFacility,
  createFacilityGroup,
  getFacility,
  listFacilities,
  listFacilityGroups,
  updateFacility,
  updateFacilityGroup,
  type FacilityAdminScope,
} from './facility-admin.service.ts';

const TAGS = ['facilities'];

function scopeOf(request: FastifyRequest): FacilityAdminScope {
  const { user } = sessionOf(request);
  const { plan } = request.params as { plan: number };
  assertPlan(sessionOf(request), plan);
  return {
    actor: actorOf(request),
    planId: user.plan_id,
    userId: user.id,
    isSystemAdmin: user.is_system_admin,
  };
}

/**
 * Facility and facility-group administration (issue 14). Facilities take the spec's Facility
 * permission (§6); facility groups and licences, which the map has no resource for, the system
 * administrator.
 */
export function registerFacilityAdminRoutes({
  app,
  db,
  permit,
  permitPlan,
  permitSystemAdmin,
}: AppContext) {
  const r = typed(app);

  r.get(
    '/api/v2/plans/:plan/facilities/all',
    {
      preHandler: permitPlan('Facility', 'Get'),
      schema: {
        tags: TAGS,
        summary: 'Facilities of the plan with their record, group and licence (Facility Get)',
        params: ZPlanParams,
        querystring: ZListQuery,
        response: { 200: ZPage(ZFacilityRecord) },
      },
    },
    async (request) => listFacilities(db, scopeOf(request), request.query),
  );

  r.post(
    '/api/v2/plans/:plan/facilities',
    {
      preHandler: permitPlan('Facility', 'Add'),
      schema: {
        tags: TAGS,
        summary: 'Create a facility; its creator administers it (Facility Add)',
        params: ZPlanParams,
        body: ZCreateFacilityRequest,
        response: { 200: ZFacilityRecord },
      },
    },
    async (request) =>
      idempotentCreate(db, request, (tx) =>
        tx.transaction((inner) => createFacility(inner, scopeOf(request), request.body)),
      ),
  );

  r.get(
    '/api/v2/plans/:plan/facilities/:facility',
    {
      preHandler: permit('Facility', 'Get'),
      schema: {
        tags: TAGS,
        summary: 'One facility with its version and licence (Facility Get)',
        params: ZFacilityParams,
        response: { 200: ZFacilityRecord },
      },
    },
    async (request) => getFacility(db, scopeOf(request).planId, request.params.facility),
  );

  r.post(
    '/api/v2/plans/:plan/facilities/:facility',
    {
      preHandler: permit('Facility', 'Modify'),
      schema: {
        tags: TAGS,
        summary: 'Edit a facility with a reason and the version (Facility Modify)',
        params: ZFacilityParams,
        body: ZUpdateFacilityRequest,
        response: { 200: ZFacilityRecord },
      },
    },
    async (request) =>
      db.transaction((tx) =>
        updateFacility(tx, scopeOf(request), request.params.facility, request.body),
      ),
  );

  r.put(
    '/api/v2/plans/:plan/facilities/:facility/license',
    {
      preHandler: permitSystemAdmin('Facility', 'License'),
      schema: {
        tags: TAGS,
        summary:
          "Set a facility's licence state and workflow, with a reason (system administrator)",
        params: ZFacilityParams,
        body: ZLicenseChangeRequest,
        response: { 200: ZFacilityRecord },
      },
    },
    async (request) =>
      db.transaction((tx) =>
        changeLicense(tx, scopeOf(request), request.params.facility, request.body),
      ),
  );

  r.get(
    '/api/v2/plans/:plan/facility-groups',
    {
      preHandler: permitPlan('Facility', 'Get'),
      schema: {
        tags: TAGS,
        summary: 'Facility groups of the plan (Facility Get)',
        params: ZPlanParams,
        querystring: ZListQuery,
        response: { 200: ZPage(ZFacilityGroupRecord) },
      },
    },
    async (request) => listFacilityGroups(db, scopeOf(request).planId, request.query),
  );

  r.post(
    '/api/v2/plans/:plan/facility-groups',
    {
      preHandler: permitSystemAdmin('FacilityGroup', 'Add'),
      schema: {
        tags: TAGS,
        summary: 'Create a facility group (system administrator)',
        params: ZPlanParams,
        body: ZCreateFacilityGroupRequest,
        response: { 200: ZFacilityGroupRecord },
      },
    },
    async (request) =>
      idempotentCreate(db, request, (tx) =>
        tx.transaction((inner) =>
          createFacilityGroup(inner, scopeOf(request), String(request.body.name)),
        ),
      ),
  );

  r.post(
    '/api/v2/plans/:plan/facility-groups/:id',
    {
      preHandler: permitSystemAdmin('FacilityGroup', 'Modify'),
      schema: {
        tags: TAGS,
        summary: 'Rename a facility group with a reason and the version (system administrator)',
        params: ZPlanParams.extend({ id: ZId }),
        body: ZUpdateFacilityGroupRequest,
        response: { 200: ZFacilityGroupRecord },
      },
    },
    async (request) =>
      db.transaction((tx) =>
        updateFacilityGroup(tx, scopeOf(request), request.params.id, request.body),
      ),
  );
}
