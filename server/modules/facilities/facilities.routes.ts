import { z } from 'zod';
import { ZFacilitiesResponse, ZPlanParams, type TFacility } from '#core/schemas/auth.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { assertPlan, sessionOf } from '#server/http/session-guard.ts';
import { registerFacilityAdminRoutes } from './facility-admin.routes.ts';

interface FacilityRow {
  id: number;
  name: string;
  product_type: TFacility['productType'];
  tier: TFacility['tier'];
  group_id: number;
  group_name: string;
  additional_properties: TFacility['additionalProperties'];
}

export function registerFacilityRoutes(context: AppContext): void {
  const { app, db, requireSession } = context;
  registerFacilityAdminRoutes(context);
  typed(app).get(
    '/api/v2/plans/:plan/facilities',
    {
      preHandler: requireSession,
      schema: {
        tags: ['facilities'],
        summary: 'The facilities of the plan granted to the signed-in user',
        params: ZPlanParams,
        querystring: z.object({ sso: z.enum(['true', 'false']).optional() }),
        response: { 200: ZFacilitiesResponse },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      assertPlan(session, request.params.plan);
      const rows = await db.query<FacilityRow>(
        `select f.id, f.name, f.product_type, f.tier, g.id as group_id, g.name as group_name,
                f.additional_properties
           from facilities f join facility_groups g on g.id = f.facility_group_id
          where f.plan_id = $1
            and exists (select 1 from user_facility_roles ufr
                         where ufr.facility_id = f.id and ufr.user_id = $2)
          order by g.name, f.name`,
        [request.params.plan, session.user.id],
      );
      return {
        facilities: rows.map((row) => ({
          id: row.id,
          name: row.name,
          productType: row.product_type,
          tier: row.tier,
          facilityGroup: { id: row.group_id, name: row.group_name },
          additionalProperties: {
            api: row.additional_properties.api ?? [],
            intermediate: row.additional_properties.intermediate ?? [],
            product: row.additional_properties.product ?? [],
            production: row.additional_properties.production ?? [],
          },
        })),
      };
    },
  );
}
