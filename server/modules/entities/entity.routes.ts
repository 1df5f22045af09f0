import { z } from 'zod';
import { actionOf, createSchema, recordSchema, type EntityDef } from '#core/entities/entity.ts';
import { madeOnce } from '#core/entities/made-once.ts';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { ZListQuery, ZId } from '#core/schemas/common.schemas.ts';
import { ZDocumentSummary } from '#core/schemas/attachments.schemas.ts';
import { ZAsOfQuery, ZControlledReadQuery } from '#core/schemas/versions.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { IDEMPOTENCY_NOTE, idempotentCreate } from '#server/http/idempotency.ts';
import { actorOf } from '#server/http/session-guard.ts';
import { registerDocumentRoutes } from '#server/modules/attachments/attachment.routes.ts';
import {
  saveWithDocument,
  valuesWithFile,
  withCurrentDocument,
} from '#server/modules/attachments/entity-documents.ts';
import {
  MULTIPART_DESCRIPTION,
  maxAttachmentBytes,
  readMultipartBody,
} from '#server/modules/attachments/multipart-body.ts';
import {
  withControlledState,
  type ControlledReadOptions,
} from '#server/records/controlled-entities.ts';
import { signatureKey } from '#server/records/signature-binding.ts';
import { getEntity, listEntities, type EntityRecord } from '#server/entities/entity-store.ts';
import { withReadExtras } from '#server/entities/read-extras.ts';
import { createEntity } from '#server/entities/entity-write.ts';
import { registerArchiveRoute, registerEditRoutes } from './entity-write.routes.ts';

const ZIdInFacility = ZFacilityParams.extend({ id: ZId });
// Productions are searched by `nameOrExternalId` in the specification's calls; it means search.
const ZEntityListQuery = ZListQuery.extend({
  nameOrExternalId: z.string().trim().max(200).optional(),
  columns: z.string().max(500).optional(),
  ...ZAsOfQuery.shape,
});
// A controlled record is read as in force unless `version=draft` (server/records/README.md).
const ZControlledListQuery = ZEntityListQuery.extend({
  version: ZControlledReadQuery.shape.version,
});
const readAsked = (query: { asOf?: string | undefined; version?: 'draft' | undefined }) => ({
  asOf: query.asOf,
  read: query.version === 'draft' ? ('draft' as const) : ('inForce' as const),
});

/**
 * The routes of a declared record, derived from its declaration: list, archived list, detail,
 * create, and the edit, unarchive and archive calls its `verbs` name (entity-write.routes.ts).
 */
export function registerEntityRoutes(context: AppContext, def: EntityDef): void {
  const { app, db, permit, config } = context;
  const r = typed(app);
  const base = `/api/v2/plans/:plan/facilities/:facility`;
  const { record, result, pages } = answersOf(def);
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
  // A controlled record's answer carries its status (server/records), and every read the
  // members other modules add (read-extras.ts).
  const readAll = async <T extends EntityRecord>(
    facilityId: number,
    records: T[],
    options: ControlledReadOptions = {},
  ) =>
    withReadExtras(
      db,
      def,
      facilityId,
      await withControlledState(db, def, facilityId, records, {
        ...options,
        ...(def.controlled ? { key: await signatureKey(config, (m) => app.log.warn(m)) } : {}),
      }),
    );
  // A save answers what it saved: the draft of a controlled record.
  const readOf = async <T extends EntityRecord>(saved: T) =>
    (await readAll(saved.facilityId, [saved], { read: 'draft' }))[0]!;

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
          querystring: def.controlled ? ZControlledListQuery : ZEntityListQuery,
          response: { 200: archived ? pages.archived : pages.current },
        },
      },
      async (request) => {
        const { nameOrExternalId, asOf, version, ...query } = request.query as z.infer<
          typeof ZControlledListQuery
        >;
        const { data, ...page } = await listEntities(
          db,
          def,
          request.params.facility,
          { ...query, search: query.search ?? nameOrExternalId },
          archived,
          { asOf },
        );
        const records = await withCurrentDocument(db, def, request.params.facility, data);
        const read = await readAll(request.params.facility, records, readAsked({ asOf, version }));
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
        querystring: def.controlled ? ZControlledReadQuery : ZAsOfQuery,
        response: { 200: record },
      },
    },
    async (request) => {
      const { facility, id } = request.params;
      const found = await getEntity(db, def, facility, id, false, { asOf: request.query.asOf });
      const [withDocument] = await withCurrentDocument(db, def, request.params.facility, [found]);
      const at = readAsked(request.query as z.infer<typeof ZControlledReadQuery>);
      return (await readAll(request.params.facility, [withDocument!], at))[0]!;
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
        response: { 200: result },
      },
    },
    async (request) => {
      const scope = scopeOf(request.params);
      const values = valuesWithFile(request, def, request.body);
      const created = await idempotentCreate(db, request, async (tx) => ({
        result: await saveWithDocument(tx, request, def, scope, null, (inner) =>
          inner.transaction((t) =>
            createEntity(t, { actor: actorOf(request), def, scope, values }),
          ),
        ),
      }));
      return { result: await readOf(created.result) };
    },
  );

  const parts = { record, result, multipart, multipartSchema, bodyNote, readOf };
  registerEditRoutes(context, def, parts);
  registerArchiveRoute(context, def, parts);
  if (def.document) registerDocumentRoutes(context, def);
}

interface AnswerSchemas {
  record: z.ZodType;
  /** A save's answer: `{ result: record }`. */
  result: z.ZodType;
  pages: { current: z.ZodType; archived: z.ZodType };
}

/**
 * What a declared record's routes answer, made once per declaration: every app built in the
 * process (each test file's) registers the same routes with the same schemas.
 */
const answersOf = madeOnce((def: EntityDef): AnswerSchemas => {
  const record = def.document
    ? recordSchema(def).extend({ document: ZDocumentSummary.optional() })
    : recordSchema(def);
  return {
    record,
    result: z.object({ result: record }),
    pages: {
      current: pageSchema(record, listKeyOf(def, false)),
      archived: pageSchema(record, listKeyOf(def, true)),
    },
  };
});

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
