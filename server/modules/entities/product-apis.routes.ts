import { activesDef, productsDef } from '#core/entities/defs/index.ts';
import { recordSchema } from '#core/entities/entity.ts';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { ZId } from '#core/schemas/common.schemas.ts';
import { ZDocumentSummary } from '#core/schemas/attachments.schemas.ts';
import { z } from 'zod';
import { getEntity } from '#server/entities/entity-store.ts';
import { withReadExtras } from '#server/entities/read-extras.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { withCurrentDocument } from '../attachments/entity-documents.ts';

const ZProductApis = z.object({
  apis: z.array(
    recordSchema(activesDef).extend({
      document: ZDocumentSummary.optional(),
      /** The amount of the active per unit of the product, as the product records it. */
      amount: z.object({ value: z.number(), unit: z.string() }).nullable(),
    }),
  ),
});

/**
 * `GET {F}/products/{id}/api` (spec §3 master data): the actives (APIs) of a product, each as its
 * own read gives it (with its HBEL library lineage) and the amount the product holds of it.
 */
export function registerProductApisRoute({ app, db, permit }: AppContext): void {
  typed(app).get(
    '/api/v2/plans/:plan/facilities/:facility/products/:id/api',
    {
      // Each active is answered as its own read gives it, so its own right is needed too.
      preHandler: [permit('Product', 'Get'), permit('API', 'Get')],
      schema: {
        tags: [productsDef.pluralLabel],
        summary: 'The actives of a product, with the amount per unit of each',
        description:
          'Each active of the product in the order the product lists them, as GET apis/{id} reads it (its current document, its HBEL library lineage), with `amount`. Needs Product Get and API Get (403 NotAllowed without it); NotFoundError for a product not in this facility.',
        params: ZFacilityParams.extend({ id: ZId }),
        response: { 200: ZProductApis },
      },
    },
    async (request) => {
      const { facility, id } = request.params;
      const product = await getEntity(db, productsDef, facility, id);
      const listed = (product.actives as { activeId: number; amount: unknown }[] | null) ?? [];
      const actives = await Promise.all(
        listed.map((a) => getEntity(db, activesDef, facility, a.activeId)),
      );
      const read = await withReadExtras(
        db,
        activesDef,
        facility,
        await withCurrentDocument(db, activesDef, facility, actives),
      );
      return {
        apis: read.map((active, i) => ({
          ...active,
          amount: (listed[i]!.amount as { value: number; unit: string } | null) ?? null,
        })),
      };
    },
  );
}
