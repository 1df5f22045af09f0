import { z } from 'zod';
import {
  ZEquipmentImage,
  ZEquipmentImageRequest,
  ZEquipmentParams,
  ZWithReason,
} from '#core/schemas/equipment-extras.schemas.ts';
import { idempotentCreate } from '#server/http/idempotency.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf } from '#server/http/session-guard.ts';
import { addImage, deleteImage, listImages } from './equipment-images.service.ts';
import { ZId } from '#core/schemas/common.schemas.ts';

const F = '/api/v2/plans/:plan/facilities/:facility';
const tags = ['Equipment images'];

/** Pictures of an item of equipment (spec §3: imageData, reason); adding or removing one is a change to the item. */
export function registerEquipmentImageRoutes({ app, db, permit }: AppContext): void {
  const r = typed(app);
  const scopeOf = (p: { plan: number; facility: number }) => ({
    planId: p.plan,
    facilityId: p.facility,
  });

  r.get(
    `${F}/equipments/:id/images`,
    {
      preHandler: permit('Equipment', 'Get'),
      schema: {
        tags,
        summary: 'The images of an item of equipment, as data URLs',
        params: ZEquipmentParams,
        response: { 200: z.object({ data: z.array(ZEquipmentImage) }) },
      },
    },
    async (request) => ({
      data: await listImages(db, request.params.facility, request.params.id),
    }),
  );

  r.post(
    `${F}/equipments/:id/images`,
    {
      preHandler: permit('Equipment', 'Modify'),
      schema: {
        tags,
        summary: 'Add an image to an item of equipment, with a reason',
        description:
          '`imageData` is a base64 data URL of a PNG or JPEG image of at most 5 MB; the bytes must be the type the URL names. At most 20 images per item. Needs Equipment Modify.',
        params: ZEquipmentParams,
        body: ZEquipmentImageRequest,
        response: { 200: z.object({ result: ZEquipmentImage }) },
      },
    },
    async (request) =>
      idempotentCreate(db, request, async (tx) => ({
        result: await addImage(
          tx,
          actorOf(request),
          scopeOf(request.params),
          request.params.id,
          request.body,
        ),
      })),
  );

  r.delete(
    `${F}/equipments/:id/images/:imageId`,
    {
      preHandler: permit('Equipment', 'Modify'),
      schema: {
        tags,
        summary: 'Remove an image of an item of equipment, with a reason (the record is kept)',
        params: ZEquipmentParams.extend({ imageId: ZId }),
        body: ZWithReason,
        response: { 200: z.object({ result: ZEquipmentImage }) },
      },
    },
    async (request) => ({
      result: await deleteImage(
        db,
        actorOf(request),
        scopeOf(request.params),
        request.params.id,
        request.params.imageId,
        request.body.reason,
      ),
    }),
  );
}
