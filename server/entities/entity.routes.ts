import { z } from 'zod';
import {
  actionOf,
  createSchema,
  editSchema,
  recordSchema,
  type EntityDef,
} from '../../core/entities/entity.ts';
import { ZFacilityParams } from '../../core/schemas/auth.schemas.ts';
import { ZListQuery, ZReason, ZId } from '../../core/schemas/common.schemas.ts';
import { ZDocumentSummary } from '../../core/schemas/attachments.schemas.ts';
import { ZAsOfQuery } from '../../core/schemas/versions.schemas.ts';
import { typed, type AppContext } from '../http/app-context.ts';
import { IDEMPOTENCY_NOTE, idempotentCreate } from '../http/idempotency.ts';
import { actorOf } from '../http/session-guard.ts';
import { registerDocumentRoutes } from '../modules/attachments/attachment.routes.ts';
import {
  editWithDocument,
  refuseDocumentOnRestore,
  saveWithDocument,
  valuesWithFile,
  withCurrentDocument,
} from '../modules/attachments/entity-documents.ts';
import {
  MULTIPART_DESCRIPTION,
  maxAttachmentBytes,
  readMultipartBody,
} from '../modules/attachments/multipart-body.ts';
import { recordAfterRollback, type Db } from '../db/db.ts';
import { withControlledState } from '../records/controlled-entities.ts';
import {
  createEntity,
  getEntity,
  type EntityRecord,
  listEntities,
  setArchived,
  updateEntity,
} from './entity-store.ts';

const ZIdInFacility = ZFacilityParams.extend({ id: ZId });
// Productions are searched by `nameOrExternalId` in the specification's calls; it means search.
const ZEntityListQuery = ZListQuery.extend({
  nameOrExternalId: z.string().trim().max(200).optional(),
  columns: z.string().max(500).optional(),
  ...ZAsOfQuery.shape,
});

/**
 * The routes every master-data entity shares, derived from its declaration: list, archived
 * list, detail, create, edit with a reason and a version, archive and unarchive with a reason.
 */
export function registerEntityRoutes(context: AppContext, def: EntityDef): void {
  const { app, db, permit, config } = context;
  const r = typed(app);
  const base = `/api/v2/plans/:plan/facilities/:facility`;
  const record = def.document
    ? recordSchema(def).extend({ document: ZDocumentSummary.optional() })
    : recordSchema(def);
  const tags = [def.pluralLabel];
  const scopeOf = (params: { plan: number; facility: number }) => ({
    planId: params.plan,
    facilityId: params.facility,
  });
  // Records that take a document also accept multipart/form-data on create and edit.
  const multipart = (action: string) =>
    def.document
      ? {
          preValidation: readMultipartBody(
            permit(def.resource, action),
            maxAttachmentBytes(config),
          ),
        }
      : {};
  const multipartSchema = def.document
    ? { consumes: ['application/json', 'multipart/form-data'] }
    : {};
  const bodyNote = def.document ? `\n\n${MULTIPART_DESCRIPTION}` : '';
  // A controlled record's answer carries its status (server/records).
  const readOf = async <T extends EntityRecord>(saved: T) =>
    (await withControlledState(db, def, saved.facilityId, [saved]))[0]!;

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
        const { nameOrExternalId, asOf, ...query } = request.query;
        const { data, ...page } = await listEntities(
          db,
          def,
          request.params.facility,
          { ...query, search: query.search ?? nameOrExternalId },
          archived,
          { asOf },
        );
        const records = await withCurrentDocument(db, def, request.params.facility, data);
        const read = await withControlledState(db, def, request.params.facility, records);
        return { [listKeyOf(def, archived)]: read, ...page };
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
        querystring: ZAsOfQuery,
        response: { 200: record },
      },
    },
    async (request) => {
      const { facility, id } = request.params;
      const found = await getEntity(db, def, facility, id, false, { asOf: request.query.asOf });
      const [withDocument] = await withCurrentDocument(db, def, request.params.facility, [found]);
      return (await withControlledState(db, def, request.params.facility, [withDocument!]))[0]!;
    },
  );

  r.post(
    `${base}/${def.path}`,
    {
      ...multipart(actionOf(def, 'add')),
      preHandler: permit(def.resource, actionOf(def, 'add')),
      schema: {
        tags,
        summary: `Create a ${def.label.toLowerCase()}`,
        description: `${def.description}${bodyNote}\n\n${IDEMPOTENCY_NOTE}`,
        ...multipartSchema,
        params: ZFacilityParams,
        body: createSchema(def),
        response: { 200: z.object({ result: record }) },
      },
    },
    async (request) => {
      const scope = scopeOf(request.params);
      const values = valuesWithFile(request, def, request.body);
      const created = await idempotentCreate(db, request, async (tx) => ({
        result: await saveWithDocument(tx, request, def, scope, null, (inner) =>
          createEntity(inner, actorOf(request), def, scope, values),
        ),
      }));
      return { result: await readOf(created.result) };
    },
  );

  r.post(
    `${base}/${def.path}/:id`,
    {
      ...multipart(actionOf(def, 'modify')),
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
        ...(def.document
          ? {
              description: `A new document replaces the current one, which is kept as superseded with the edit's reason.${bodyNote}`,
            }
          : {}),
        ...multipartSchema,
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
      const { id } = request.params;
      if (unArchive) {
        refuseDocumentOnRestore(request);
        const restored = await setArchived(db, actorOf(request), def, scope, id, false, reason);
        return { result: await readOf(restored) };
      }
      const values = valuesWithFile(request, def, edit);
      const save = (inner: Db) =>
        updateEntity(inner, actorOf(request), def, scope, id, values, { reason, version });
      try {
        const saved = await editWithDocument(db, request, def, scope, id, reason, version, save);
        return { result: await readOf(saved) };
      } catch (error) {
        // An edit of a controlled record under review is refused, and audited once rolled back.
        await recordAfterRollback(error, db);
        throw error;
      }
    },
  );

  r.put(
    `${base}/${def.path}/:id/archive`,
    {
      preHandler: permit(def.resource, actionOf(def, 'archive')),
      schema: {
        tags,
        summary: `Archive a ${def.label.toLowerCase()} with a reason; archived records are kept and can be restored`,
        description:
          'Where other records or the limits depend on it (an active in a product, equipment or a product in a production), archiving is refused with a DataValidationError on `confirmImpact` that lists where it is used and which limits change, until the request confirms the impact with `confirmImpact: true`.',
        params: ZIdInFacility,
        body: z.object({
          reason: ZReason,
          confirmImpact: z
            .boolean()
            .optional()
            .describe('The caller has seen where the record is used and which limits change'),
        }),
        response: { 200: z.object({ result: record }) },
      },
    },
    async (request) => ({
      result: await readOf(
        await setArchived(
          db,
          actorOf(request),
          def,
          scopeOf(request.params),
          request.params.id,
          true,
          request.body.reason,
          { confirmImpact: request.body.confirmImpact },
        ),
      ),
    }),
  );

  if (def.document) registerDocumentRoutes(context, def);
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
