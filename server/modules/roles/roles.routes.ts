import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  isAllowed,
  isRestrictedUser,
  mergePermissionMaps,
  type PermissionMap,
} from '#core/permissions/permission-map.ts';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import {
  ZCreateRoleRequest,
  ZMyPermissions,
  ZRole,
  ZRoleListQuery,
  ZUamAccess,
  ZUpdateRoleRequest,
} from '#core/schemas/roles.schemas.ts';
import { ZReasonBody } from '#core/schemas/users.schemas.ts';
import { idempotentCreate } from '#server/http/idempotency.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf, facilityPermissions, sessionOf } from '#server/http/session-guard.ts';
import {
  archiveRole,
  createRole,
  listRoles,
  updateRole,
  type FacilityScope,
} from './roles.service.ts';
import { ZId } from '#core/schemas/common.schemas.ts';
import { editOrRestore } from '#server/http/permission-guards.ts';

const F = '/api/v2/plans/:plan/facilities/:facility';
const TAGS = ['roles'];
const ZRoleParams = ZFacilityParams.extend({ id: ZId });

interface FacilityPath {
  plan: number;
  facility: number;
}

function scopeOf(request: FastifyRequest, params: FacilityPath): FacilityScope {
  return { actor: actorOf(request), planId: params.plan, facilityId: params.facility };
}

/** Roles belong to a facility; each call needs the UserRole permission in the facility of the path. */
export function registerRoleRoutes({ app, db, permit, permitMember }: AppContext): void {
  const r = typed(app);

  r.get(
    `${F}/user_roles`,
    {
      preHandler: permit('UserRole', 'Get'),
      schema: {
        tags: TAGS,
        summary: "The facility's roles with their permission maps (UserRole Get)",
        description: '`archived=true` lists the archived roles.',
        params: ZFacilityParams,
        querystring: ZRoleListQuery,
        response: { 200: z.array(ZRole) },
      },
    },
    async (request) => listRoles(db, scopeOf(request, request.params), request.query.archived),
  );

  r.post(
    `${F}/user_roles`,
    {
      preHandler: permit('UserRole', 'Add'),
      schema: {
        tags: TAGS,
        summary: 'Create a role (UserRole Add)',
        description:
          'The permission map lists resources and actions of the specification; every action not given is false.',
        params: ZFacilityParams,
        body: ZCreateRoleRequest,
        response: { 200: ZRole },
      },
    },
    async (request) =>
      idempotentCreate(db, request, (tx) =>
        createRole(tx, scopeOf(request, request.params), request.body),
      ),
  );

  const canDelete = permit('UserRole', 'Delete');
  r.post(
    `${F}/user_roles/:id`,
    {
      // Restoring an archived role (unArchive) is the counterpart of archiving: UserRole Delete.
      preHandler: permit('UserRole', editOrRestore('Delete')),
      schema: {
        tags: TAGS,
        summary:
          'Edit a role, or restore an archived one (UserRole Modify; unArchive UserRole Delete)',
        description:
          'Needs a reason and the `version` the edit was made from; a stale version gets 409. The audit row lists each permission that changed.',
        params: ZRoleParams,
        body: ZUpdateRoleRequest,
        response: { 200: ZRole },
      },
    },
    async (request) =>
      updateRole(db, scopeOf(request, request.params), request.params.id, request.body),
  );

  r.put(
    `${F}/user_roles/:id/archive`,
    {
      preHandler: canDelete,
      schema: {
        tags: TAGS,
        summary: 'Archive a role nobody holds (UserRole Delete)',
        params: ZRoleParams,
        body: ZReasonBody,
        response: { 200: ZRole },
      },
    },
    async (request) =>
      archiveRole(db, scopeOf(request, request.params), request.params.id, request.body.reason),
  );

  /**
   * The user's maps in the facility of the path (its grant checked by the route's guard) and
   * across the plan (plan-wide areas use the latter).
   */
  async function permissionsOf(request: FastifyRequest, params: FacilityPath) {
    const session = sessionOf(request);
    const facility = facilityPermissions(session, params.plan, params.facility);
    const rows = await db.query<{ permissions: PermissionMap }>(
      `select r.permissions from user_facility_roles ufr join roles r on r.id = ufr.role_id and r.archived_at is null
        where ufr.user_id = $1`,
      [session.user.id],
    );
    return { facility, plan: mergePermissionMaps(rows.map((row) => row.permissions)) };
  }

  r.get(
    `${F}/UAM/access`,
    {
      preHandler: permitMember(),
      schema: {
        tags: TAGS,
        summary: 'May the signed-in user use user access management in this facility?',
        description:
          'True when their roles in the facility allow User Get or UserRole Get. A facility not granted to them gets 403.',
        params: ZFacilityParams,
        response: { 200: ZUamAccess },
      },
    },
    async (request) => {
      const { facility } = await permissionsOf(request, request.params);
      return {
        access: isAllowed(facility, 'User', 'Get') || isAllowed(facility, 'UserRole', 'Get'),
      };
    },
  );

  r.get(
    `${F}/UAM/permissions`,
    {
      preHandler: permitMember(),
      schema: {
        tags: TAGS,
        summary: "The signed-in user's permissions in this facility and across the plan",
        description:
          'The client shows only the areas these allow. `isRestricted`: the user holds only Production or Quality Control roles.',
        params: ZFacilityParams,
        response: { 200: ZMyPermissions },
      },
    },
    async (request) => {
      const { facility, plan } = await permissionsOf(request, request.params);
      return {
        facility,
        plan,
        isRestricted: isRestrictedUser(sessionOf(request).user.role_names),
      };
    },
  );
}
