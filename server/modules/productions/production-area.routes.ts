import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { ZEquipmentParams } from '#core/schemas/equipment-extras.schemas.ts';
import {
  ZProductionSurfaceArea,
  ZSurfaceAreaSummaries,
} from '#core/schemas/productions.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { getProductionSurfaceArea, listProductionSurfaceAreas } from './production-area.service.ts';

const F = '/api/v2/plans/:plan/facilities/:facility';

/** The product-contact surface area of productions (spec §3: "Production: … surface area"). */
export function registerProductionAreaRoutes({ app, db, permit }: AppContext): void {
  const r = typed(app);

  // Registered as a static path, which Fastify matches before `productions/:id`.
  r.get(
    `${F}/productions/surface-areas`,
    {
      preHandler: permit('Production', 'Get'),
      schema: {
        tags: ['Productions'],
        summary: 'The total surface area of every live production, for the productions list',
        description:
          'Each live production’s total product-contact area in the facility’s default surface-area unit, whether it is complete, and how many mapped items have no area.',
        params: ZFacilityParams,
        response: { 200: ZSurfaceAreaSummaries },
      },
    },
    async (request) => listProductionSurfaceAreas(db, request.params.facility),
  );

  r.get(
    `${F}/productions/:id/surface-area`,
    {
      preHandler: permit('Production', 'Get'),
      schema: {
        tags: ['Productions'],
        summary: 'A production’s total product-contact surface area, with its breakdown',
        description:
          'The sum of the areas of the production’s equipment, each converted exactly (core/units) into the facility’s default surface-area unit, with each item as entered and converted and a derivation a reviewer can check. Equipment without an area is listed as missing and the total is marked incomplete; archived equipment is listed but not counted. Needs Production Get.',
        params: ZEquipmentParams,
        response: { 200: ZProductionSurfaceArea },
      },
    },
    async (request) => getProductionSurfaceArea(db, request.params.facility, request.params.id),
  );
}
