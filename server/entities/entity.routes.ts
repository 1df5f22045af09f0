import { z } from 'zod';
import {
  actionOf,
  createSchema,
  editSchema,
  recordSchema,
  type EntityDef,
} from '../../core/entities/entity.ts';
import { ZFacilityParams } from '../../core/schemas/auth.schemas.ts';
import { ZListQuery, ZReason } from '../../core/schemas/common.schemas.ts';
import { typed, type AppContext } from '../http/app-context.ts';
import { actorOf } from '../http/session-guard.ts';
import {
  createEntity,
  getEntity,
  listEntities,
  setArchived,
  updateEntity,
} from './entity-store.ts';

const ZIdInFacility = ZFacilityParams.extend({ id: z.coerce.number().int().positive() });
// Productions are searched by `nameOrExternalId` in the specification's calls; it means search.
const ZEntityListQuery = ZListQuery.extend({
  nameOrExternalId: z.string().trim().max(200).optional(),
  columns: z.string().max(500).optional(),
});

/**
 * The routes every master-data entity shares, derived from its declaration: list, archived
 * list, detail, create, edit with a reason and a version, archive and unarchive with a reason.
 */
export function registerEntityRoutes({ app, db, permit }: AppContext, def: EntityDef): void {
  const r = typed(app);
  const base = `/api/v2/plans/:plan/facilities/:facility`;
  const record = recordSchema(def);
  const tags = [def.pluralLabel];
  const scopeOf = (params: { plan: number; facility: number }) => ({
    planId: params.plan,
    facilityId: params.facility,
  });

  for (const archived of [false, true]) {
    r.get(
      archived ? `${base}/archived/${def.path}` : `${base}/${def.path}`,
      {
        preHandler: permit(def.resource, actionOf(def, 'get')),
        schema: {
          tags,
          summary: archived
            ? `Archived ${def.pluralLabel.toLowerCase()}`
            : `${def.pluralLabel}, a page at a time`,
          description: def.description,
          params: ZFacilityParams,
          querystring: ZEntityListQuery,
          response: { 200: pageSchema(record, listKeyOf(def, archived)) },
        },
      },
      async (request) => {
        const { nameOrExternalId, ...query } = request.query;
        const { data, ...page } = await listEntities(
          db,
          def,
          request.params.facility,
          { ...query, search: query.search ?? nameOrExternalId },
          archived,
        );
        return { [listKeyOf(def, archived)]: data, ...page };
      },
    );
  }

  r.get(
    `${base}/${def.path}/:id`,
    {
      preHandler: permit(def.resource, actionOf(def, 'get')),
      schema: {
        tags,
        summary: `One ${def.label.toLowerCase()}`,
        params: ZIdInFacility,
        response: { 200: record },
      },
    },
    async (request) => getEntity(db, def, request.params.facility, request.params.id),
  );

  r.post(
    `${base}/${def.path}`,
    {
      preHandler: permit(def.resource, actionOf(def, 'add')),
      schema: {
        tags,
        summary: `Create a ${def.label.toLowerCase()}`,
        description: def.description,
        params: ZFacilityParams,
        body: createSchema(def),
        response: { 200: z.object({ result: record }) },
      },
    },
    async (request) => ({
      result: await createEntity(db, actorOf(request), def, scopeOf(request.params), request.body),
    }),
  );

  r.post(
    `${base}/${def.path}/:id`,
    {
      // Unarchiving is an update with the unArchive flag (spec §4); it needs the archive right.
      preHandler: async (request, reply) => {
        const body = request.body as { unArchive?: unknown } | undefined;
        const action =
          body?.unArchive === true ? actionOf(def, 'archive') : actionOf(def, 'modify');
        await permit(def.resource, action)(request, reply);
      },
      schema: {
        tags,
        summary: `Edit a ${def.label.toLowerCase()} (with a reason and the version it was made from), or unarchive it`,
        params: ZIdInFacility,
        body: editSchema(def),
        response: { 200: z.object({ result: record }) },
      },
    },
    async (request) => {
      const { reason, version, unArchive, ...edit } = request.body as Record<string, unknown> & {
        reason: string;
        version?: number;
        unArchive?: boolean;
      };
      const scope = scopeOf(request.params);
      const result = unArchive
        ? await setArchived(db, actorOf(request), def, scope, request.params.id, false, reason)
        : await updateEntity(db, actorOf(request), def, scope, request.params.id, edit, {
            reason,
            version,
          });
      return { result };
    },
  );

  r.put(
    `${base}/${def.path}/:id/archive`,
    {
      preHandler: permit(def.resource, actionOf(def, 'archive')),
      schema: {
        tags,
        summary: `Archive a ${def.label.toLowerCase()} with a reason; archived records are kept and can be restored`,
        params: ZIdInFacility,
        body: z.object({ reason: ZReason }),
        response: { 200: z.object({ result: record }) },
      },
    },
    async (request) => ({
      result: await setArchived(
        db,
        actorOf(request),
        def,
        scopeOf(request.params),
        request.params.id,
        true,
        request.body.reason,
      ),
    }),
  );
}

/** Lists answer under `data`, or under the key the specification names (intermediates). */
function listKeyOf(def: EntityDef, archived: boolean): string {
  return (archived ? def.archivedListKey : def.listKey) ?? 'data';
}

function pageSchema(record: z.ZodType, key: string) {
  return z.object({
    [key]: z.array(record),
    total: z.number().int(),
    pageNumber: z.number().int(),
    pageLimit: z.number().int(),
  });
}
