import { AppError } from '#core/errors/errors.ts';
import { actionOf, type EntityDef } from '#core/entities/entity.ts';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { ZId } from '#core/schemas/common.schemas.ts';
import { ZRecordVersionsResponse } from '#core/schemas/versions.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { recordVersions } from '#server/records/record-versions.ts';
import { toRecord } from '#server/entities/entity-store.ts';
import { ownerColumn } from '#server/entities/entity-scope.ts';

/** `GET …/{id}/versions` of a declared entity: every kept version, oldest first. */
export function registerEntityVersionRoutes({ app, db, permit }: AppContext, def: EntityDef) {
  typed(app).get(
    `/api/v2/plans/:plan/facilities/:facility/${def.path}/:id/versions`,
    {
      preHandler: permit(def.resource, actionOf(def, 'get')),
      schema: {
        tags: [def.pluralLabel],
        summary: `Every version of a ${def.label.toLowerCase()}, oldest first`,
        description:
          'Each change (create, edit, archive, unarchive) kept as the record was after it, with when and by whom. Send a recordedAt back as `asOf` on the list or detail read to see the data as it was then.',
        params: ZFacilityParams.extend({ id: ZId }),
        response: { 200: ZRecordVersionsResponse },
      },
    },
    async (request) => {
      const ownedBy = ownerColumn(def);
      const ref = {
        table: def.table,
        facilityId: ownedBy === 'plan_id' ? request.params.plan : request.params.facility,
        recordId: request.params.id,
        ownedBy,
        ...(def.controlled ? { documentType: def.controlled.documentType } : {}),
      };
      // Each version's values are the record exactly as the detail read gave it then.
      const versions = await recordVersions(db, ref, (row) => toRecord(def, row));
      if (versions.length === 0)
        throw new AppError('NotFoundError', `${def.label} ${ref.recordId} was not found`);
      return { versions };
    },
  );
}
