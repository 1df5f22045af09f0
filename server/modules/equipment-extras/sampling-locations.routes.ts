import { z } from 'zod';
import {
  ZArchivedQuery,
  ZAssessRequest,
  ZCreateSamplingLocationsRequest,
  ZEditSamplingLocationRequest,
  ZEquipmentParams,
  ZLocationParams,
  ZSamplingLocation,
  ZWithReason,
} from '#core/schemas/equipment-extras.schemas.ts';
import { validationError } from '#core/errors/errors.ts';
import { idempotentCreate } from '#server/http/idempotency.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf } from '#server/http/session-guard.ts';
import {
  assessLocationRisk,
  createLocations,
  getLocation,
  listLocations,
  setLocationArchived,
  updateLocation,
} from './sampling-locations.service.ts';
import { editOrRestore } from '#server/http/permission-guards.ts';

const F = '/api/v2/plans/:plan/facilities/:facility';
const SAMPLING_LOCATIONS = `${F}/equipments/:id/sampling-locations`;
const TAGS = ['Sampling locations'];

/** A body's equipmentId, where it is sent, is the equipment of the path. */
function samePath(equipmentId: number | undefined, pathId: number) {
  if (equipmentId !== undefined && equipmentId !== pathId)
    throw validationError([
      {
        property: 'equipmentId',
        constraints: { path: `must be the equipment of the path (${pathId})` },
      },
    ]);
}

/**
 * Sampling locations of an item of equipment (permission resource SwabLocation): the spots that
 * are swabbed or rinsed, each with a risk assessment. Archive is DELETE with a reason; unarchive
 * is PUT with `unArchive` and a reason (spec §4).
 */
export function registerSamplingLocationRoutes(context: AppContext): void {
  registerAt(context, SAMPLING_LOCATIONS, false);
  // Legacy paths (spec §7): the same calls under /locations, kept for older clients.
  registerAt(context, `${F}/equipments/:id/locations`, true);
}

function registerAt({ app, db, permit }: AppContext, L: string, deprecated: boolean): void {
  const r = typed(app);
  const tags = deprecated ? ['Sampling locations (legacy paths)'] : TAGS;
  const scopeOf = (p: { plan: number; facility: number }) => ({
    planId: p.plan,
    facilityId: p.facility,
  });

  r.get(
    L,
    {
      preHandler: permit('SwabLocation', 'Get'),
      schema: {
        deprecated,
        tags,
        summary:
          'The sampling locations of an item of equipment (`archived=true`: the archived ones)',
        params: ZEquipmentParams,
        querystring: ZArchivedQuery,
        response: { 200: z.object({ data: z.array(ZSamplingLocation) }) },
      },
    },
    async (request) => ({
      data: await listLocations(
        db,
        request.params.facility,
        request.params.id,
        request.query.archived,
      ),
    }),
  );

  r.get(
    `${L}/:locationId`,
    {
      preHandler: permit('SwabLocation', 'Get'),
      schema: {
        deprecated,
        tags,
        summary: 'One sampling location',
        params: ZLocationParams,
        response: { 200: ZSamplingLocation },
      },
    },
    async (request) =>
      getLocation(db, request.params.facility, request.params.id, request.params.locationId),
  );

  r.post(
    L,
    {
      preHandler: permit('SwabLocation', 'Add'),
      schema: {
        deprecated,
        tags,
        summary: 'Add sampling locations to an item of equipment',
        description:
          'Spec §3: `data` (one location or a list of them; problems are reported by position, `data[0].name`), `equipmentId` (the equipment of the path) and an optional `reason`. Names are unique per item, archived locations included. A swab location with a sampling type and no swab area takes the type’s swab area. All are added in one transaction, or none.',
        params: ZEquipmentParams,
        body: ZCreateSamplingLocationsRequest,
        response: { 200: z.object({ result: z.array(ZSamplingLocation) }) },
      },
    },
    async (request) => {
      const { data, equipmentId, reason } = request.body;
      samePath(equipmentId, request.params.id);
      const items = data.map((fields, i) => ({ fields, at: `data[${i}].` }));
      // All of them are added in one transaction, or none.
      return idempotentCreate(db, request, (q) =>
        q.transaction(async (tx) => ({
          result: await createLocations(
            tx,
            actorOf(request),
            scopeOf(request.params),
            request.params.id,
            items,
            reason,
          ),
        })),
      );
    },
  );

  r.put(
    `${L}/:locationId`,
    {
      // Unarchiving restores what DELETE archived, so it needs the same right.
      preHandler: permit('SwabLocation', editOrRestore('Delete')),
      schema: {
        deprecated,
        tags,
        summary:
          'Edit a sampling location (data, version, reason), or unarchive it (unArchive, reason)',
        params: ZLocationParams,
        body: ZEditSamplingLocationRequest,
        response: { 200: z.object({ result: ZSamplingLocation }) },
      },
    },
    async (request) => {
      const { data, reason, version, unArchive } = request.body;
      const { id, locationId } = request.params;
      const scope = scopeOf(request.params);
      const result = unArchive
        ? await setLocationArchived(db, actorOf(request), scope, id, locationId, false, reason)
        : await updateLocation(db, actorOf(request), scope, id, locationId, data ?? {}, {
            reason,
            version: version!,
          });
      return { result };
    },
  );

  r.delete(
    `${L}/:locationId`,
    {
      preHandler: permit('SwabLocation', 'Delete'),
      schema: {
        deprecated,
        tags,
        summary: 'Archive a sampling location with a reason (it is kept and can be restored)',
        params: ZLocationParams,
        body: ZWithReason,
        response: { 200: z.object({ result: ZSamplingLocation }) },
      },
    },
    async (request) => ({
      result: await setLocationArchived(
        db,
        actorOf(request),
        scopeOf(request.params),
        request.params.id,
        request.params.locationId,
        true,
        request.body.reason,
      ),
    }),
  );

  r.post(
    `${L}/:locationId/assess`,
    {
      preHandler: permit('SwabLocation', 'Modify'),
      schema: {
        deprecated,
        tags,
        summary: 'Record the risk assessment of a sampling location, with a reason',
        description:
          'When the facility has active sampling-assessment attributes ({F}/sampling-policy/attributes), send `ratings`: one option for each attribute; the risk score is the sum of weight × option score, High from two thirds of the highest possible score, Medium from one third, else Low. Otherwise send the four factors: scores 1–5 for how hard the spot is to clean and to reach or see, the material (316L or 304 stainless 1, glass 2, PTFE 3, polypropylene 4, other 5; the location’s, then the equipment’s when not sent) and product contact (direct 5, indirect 2, none 1). The risk score is their product (1–625): from 100 High (a worst-case location sampled in every study), from 25 Medium, else Low.',
        params: ZLocationParams,
        body: ZAssessRequest,
        response: { 200: z.object({ result: ZSamplingLocation }) },
      },
    },
    async (request) => {
      samePath(request.body.equipmentId, request.params.id);
      return {
        result: await assessLocationRisk(
          db,
          actorOf(request),
          scopeOf(request.params),
          request.params.id,
          request.params.locationId,
          request.body,
        ),
      };
    },
  );
}
