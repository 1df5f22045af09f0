import { z } from 'zod';
import { actionOf, editSchema, recordSchema } from '../../../core/entities/entity.ts';
import { selectionCriteriaDef } from '../../../core/entities/defs/index.ts';
import { ZFacilityParams } from '../../../core/schemas/auth.schemas.ts';
import { restoreEntity, updateEntity } from '../../entities/entity-write.ts';
import { typed, type AppContext } from '../../http/app-context.ts';
import { actorOf } from '../../http/session-guard.ts';
import { ZId } from '../../../core/schemas/common.schemas.ts';

const F = '/api/v2/plans/:plan/facilities/:facility';

/**
 * What the shared entity routes do not give: spec §7 lets selection criteria be edited by PUT
 * {id} as well as POST {id}; it answers exactly as POST does.
 */
export function registerMasterRecordRoutes({ app, db, permit }: AppContext): void {
  const r = typed(app);
  const def = selectionCriteriaDef;

  r.put(
    `${F}/${def.path}/:id`,
    {
      preHandler: async (request, reply) => {
        const body = request.body as { unArchive?: unknown } | undefined;
        const action =
          body?.unArchive === true ? actionOf(def, 'archive') : actionOf(def, 'modify');
        await permit(def.resource, action)(request, reply);
      },
      schema: {
        tags: [def.pluralLabel],
        summary: 'Edit a selection criterion (as POST {id}), or unarchive it',
        params: ZFacilityParams.extend({ id: ZId }),
        body: editSchema(def),
        response: { 200: z.object({ result: recordSchema(def) }) },
      },
    },
    async (request) => {
      const { reason, version, unArchive, ...edit } = request.body as Record<string, unknown> & {
        reason: string;
        version?: number;
        unArchive?: boolean;
      };
      const scope = { planId: request.params.plan, facilityId: request.params.facility };
      const write = { actor: actorOf(request), def, scope, id: request.params.id, reason };
      const result = await db.transaction((tx) =>
        unArchive ? restoreEntity(tx, write) : updateEntity(tx, { ...write, edit, version }),
      );
      return { result };
    },
  );
}
