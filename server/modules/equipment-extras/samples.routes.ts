import { z } from 'zod';
import {
  ZArchivedQuery,
  ZCreateSampleRequest,
  ZEditSampleRequest,
  ZLocationParams,
  ZSample,
  ZSampleParams,
} from '#core/schemas/equipment-extras.schemas.ts';
import { idempotentCreate } from '#server/http/idempotency.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf } from '#server/http/session-guard.ts';
import { createSample, listSamples, setSampleArchived, updateSample } from './samples.service.ts';

const F = '/api/v2/plans/:plan/facilities/:facility';
const S = `${F}/equipments/:id/sampling-locations/:locationId/samples`;
const tags = ['Samples'];

/**
 * Samples at a sampling location (permission resource SwabLocation). POST or PUT {id} edits
 * (fields, version, reason), archives (`archive`, reason) or unarchives (`unArchive`, reason).
 */
export function registerSampleRoutes({ app, db, permit }: AppContext): void {
  const r = typed(app);
  const scopeOf = (p: { plan: number; facility: number }) => ({
    planId: p.plan,
    facilityId: p.facility,
  });
  const pathOf = (p: { id: number; locationId: number }) => ({
    equipmentId: p.id,
    locationId: p.locationId,
  });

  r.get(
    S,
    {
      preHandler: permit('SwabLocation', 'Get'),
      schema: {
        tags,
        summary: 'The samples of a sampling location (`archived=true`: the archived ones)',
        params: ZLocationParams,
        querystring: ZArchivedQuery,
        response: { 200: z.object({ data: z.array(ZSample) }) },
      },
    },
    async (request) => ({
      data: await listSamples(
        db,
        request.params.facility,
        pathOf(request.params),
        request.query.archived,
      ),
    }),
  );

  r.post(
    S,
    {
      preHandler: permit('SwabLocation', 'Add'),
      schema: {
        tags,
        summary: 'Add a sample to a sampling location',
        description:
          'A sample’s name is unique at its location; a batch number, where given, is unique across the facility’s samples (DuplicateBatchNumber: "Batch number must be unique across samples"). A swab sample without a swab area takes the location’s.',
        params: ZLocationParams,
        body: ZCreateSampleRequest,
        response: { 200: z.object({ result: ZSample }) },
      },
    },
    async (request) => {
      const { reason, ...fields } = request.body;
      return idempotentCreate(db, request, async (tx) => ({
        result: await createSample(
          tx,
          actorOf(request),
          scopeOf(request.params),
          pathOf(request.params),
          fields,
          reason,
        ),
      }));
    },
  );

  // Archiving and unarchiving need Delete; an edit needs Modify.
  const editGuard = permit('SwabLocation', (request) => {
    const body = request.body as { archive?: unknown; unArchive?: unknown } | undefined;
    return body?.archive === true || body?.unArchive === true ? 'Delete' : 'Modify';
  });

  for (const method of ['post', 'put'] as const) {
    r[method](
      `${S}/:sampleId`,
      {
        preHandler: editGuard,
        schema: {
          tags,
          summary:
            'Edit a sample (fields, version, reason), or archive or unarchive it with a reason',
          params: ZSampleParams,
          body: ZEditSampleRequest,
          response: { 200: z.object({ result: ZSample }) },
        },
      },
      async (request) => {
        const { reason, version, archive, unArchive, ...edit } = request.body;
        const scope = scopeOf(request.params);
        const path = pathOf(request.params);
        const { sampleId } = request.params;
        const actor = actorOf(request);
        const result =
          archive || unArchive
            ? await setSampleArchived(db, actor, scope, path, sampleId, archive === true, reason)
            : await updateSample(db, actor, scope, path, sampleId, edit, {
                reason,
                version: version!,
              });
        return { result };
      },
    );
  }
}
