import { actionOf, type EntityDef } from '#core/entities/entity.ts';
import { isAllowed } from '#core/permissions/permission-map.ts';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { ZId } from '#core/schemas/common.schemas.ts';
import { ZWhereUsed } from '#core/schemas/where-used.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { facilityPermissions, sessionOf } from '#server/http/session-guard.ts';
import { getEntity } from '#server/entities/entity-store.ts';
import { listWhereUsed, referrersOf } from '#server/entities/where-used.ts';

/**
 * GET {F}/{path}/{id}/where-used, for the declared records others name: the record's detail
 * page shows it. Not in the specification's catalogue (its calls show no such read).
 */
export function registerWhereUsedRoute({ app, db, permit }: AppContext, def: EntityDef): void {
  if (def.scope !== undefined || referrersOf(def).length === 0) return;
  typed(app).get(
    `/api/v2/plans/:plan/facilities/:facility/${def.path}/:id/where-used`,
    {
      preHandler: permit(def.resource, actionOf(def, 'get')),
      schema: {
        tags: [def.pluralLabel],
        summary: `Where a ${def.label.toLowerCase()} is used`,
        description: `The live records of the facility that name the ${def.label.toLowerCase()}, by kind and field; kinds the caller may not read are left out. NotFoundError for an id not in this facility.`,
        params: ZFacilityParams.extend({ id: ZId }),
        response: { 200: ZWhereUsed },
      },
    },
    async (request) => {
      const { plan, facility, id } = request.params;
      // A record of another facility is not found here, whatever its id.
      await getEntity(db, def, facility, id);
      const permissions = facilityPermissions(sessionOf(request), plan, facility);
      return listWhereUsed(db, {
        def,
        facilityId: facility,
        id,
        canRead: (other) => isAllowed(permissions, other.resource, actionOf(other, 'get')),
      });
    },
  );
}
