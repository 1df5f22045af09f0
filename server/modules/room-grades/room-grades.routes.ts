import { z } from 'zod';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import {
  ZRoomGrade,
  ZRoomGradeParams,
  ZRoomGradeRequest,
} from '#core/schemas/room-grades.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf } from '#server/http/session-guard.ts';
import { listRoomGrades, mapRoomGrade } from './room-grades.service.ts';

const F = '/api/v2/plans/:plan/facilities/:facility';
const tags = ['Room grades'];

/** Room grades A–D (EU GMP Annex 1) and the equipment standing in each. */
export function registerRoomGradeRoutes({ app, db, permit }: AppContext): void {
  const r = typed(app);

  r.get(
    `${F}/room-grades`,
    {
      preHandler: permit('Equipment', 'Get'),
      schema: {
        tags,
        summary: 'The room grades A–D of the facility with the equipment in each',
        description:
          'Every facility has the four cleanroom grades of EU GMP Annex 1. An item’s grade is its `roomGrade`; microbial limits follow the grade.',
        params: ZFacilityParams,
        response: { 200: z.object({ data: z.array(ZRoomGrade) }) },
      },
    },
    async (request) => ({ data: await listRoomGrades(db, request.params.facility) }),
  );

  r.post(
    `${F}/room-grades/:id`,
    {
      preHandler: permit('Equipment', 'Modify'),
      schema: {
        tags,
        summary: 'Set the equipment of a room grade, with a reason',
        description:
          'Spec §7: `equipments` (ids) and `reason`; `{id}` is the grade’s id or letter. `equipments` becomes the whole list of the grade: listed items take it, items of the grade left out lose it (they then show in equipments/no-grade). Each item’s change is audited on the item. `version` (the grade’s) guards against a stale screen. Needs Equipment Modify.',
        params: ZRoomGradeParams,
        body: ZRoomGradeRequest,
        response: { 200: z.object({ result: ZRoomGrade }) },
      },
    },
    async (request) => ({
      result: await mapRoomGrade(
        db,
        actorOf(request),
        { planId: request.params.plan, facilityId: request.params.facility },
        request.params.id,
        request.body,
      ),
    }),
  );
}
