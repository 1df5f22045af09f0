import { z } from 'zod';
import { actionOf, editSchema, type EntityDef } from '#core/entities/entity.ts';
import { validationError } from '#core/errors/errors.ts';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { ZId, ZReason } from '#core/schemas/common.schemas.ts';
import { recordAfterRollback, type Db } from '#server/db/db.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf } from '#server/http/session-guard.ts';
import {
  editWithDocument,
  refuseDocumentOnRestore,
  valuesWithFile,
} from '#server/modules/attachments/entity-documents.ts';
import type { EntityRecord } from '#server/entities/entity-store.ts';
import { archiveEntity, restoreEntity, updateEntity } from '#server/entities/entity-write.ts';

const ZIdInFacility = ZFacilityParams.extend({ id: ZId });
// `?unarchive` (spec §7) restores an archived record; a bare flag arrives as an empty string.
const ZUnarchiveQuery = z.object({
  unarchive: z
    .string()
    .optional()
    .transform((v) => v !== undefined && v !== 'false')
    .describe('Present (`?unarchive` or `?unarchive=true`): restore the archived record'),
});

/** What the entity's other routes share with its edit and archive routes. */
export interface EntityRouteParts {
  record: z.ZodType;
  /** A save's answer, `{ result: record }`. */
  result: z.ZodType;
  /** Route options that read a multipart body, for records that take a document. */
  multipart: (action: string) => object;
  multipartSchema: object;
  bodyNote: string;
  /** The saved record as the record's reads answer it (a controlled record with its status). */
  readOf: (saved: EntityRecord) => Promise<unknown>;
}

const scopeOf = (params: { plan: number; facility: number }) => ({
  planId: params.plan,
  facilityId: params.facility,
});

function restoring(def: EntityDef, body: unknown, query: unknown): boolean {
  if (def.archivable === false) return false;
  // The guard sees the query as sent (a bare `?unarchive` is ''), the handler as parsed (true).
  const flag = (query as { unarchive?: unknown } | undefined)?.unarchive;
  const byQuery = flag === true || (typeof flag === 'string' && flag !== 'false');
  const byBody = (body as { unArchive?: unknown } | undefined)?.unArchive === true;
  return byBody || (def.verbs === 'put-delete' && byQuery);
}

/**
 * Edit (with a reason and the version it was made from) and unarchive, by the calls the
 * declaration names: POST {id}, PUT {id}, or both.
 */
export function registerEditRoutes(context: AppContext, def: EntityDef, parts: EntityRouteParts) {
  const { app, db, permit } = context;
  const r = typed(app);
  const byPut = def.verbs === 'put-delete';
  const methods = byPut ? ['PUT'] : def.verbs === 'post-or-put' ? ['POST', 'PUT'] : ['POST'];
  const lower = def.label.toLowerCase();
  const summary = byPut
    ? `Edit a ${lower} (changed fields, version, reason), or unarchive it (?unarchive, reason)`
    : `Edit a ${lower} (with a reason and the version it was made from), or unarchive it`;
  const description = byPut
    ? `An edit sends the fields it changes, the version it was made from (a stale version gets 409 VersionConflictError) and a reason. With \`?unarchive\` (or \`unArchive: true\` in the body) the archived ${lower} is restored; only the reason is needed. ${def.description}`
    : def.document
      ? `A new document replaces the current one, which is kept as superseded with the edit's reason.${parts.bodyNote}`
      : undefined;
  r.route({
    method: methods as ('POST' | 'PUT')[],
    url: `/api/v2/plans/:plan/facilities/:facility/${def.path}/:id`,
    ...parts.multipart(actionOf(def, 'modify')),
    // Unarchiving is an update with the unArchive flag (spec §4); it needs the archive right.
    preHandler: permit(def.resource, (request) =>
      actionOf(def, restoring(def, request.body, request.query) ? 'archive' : 'modify'),
    ),
    schema: {
      tags: [def.pluralLabel],
      summary,
      ...(description ? { description } : {}),
      ...parts.multipartSchema,
      params: ZIdInFacility,
      ...(byPut ? { querystring: ZUnarchiveQuery } : {}),
      body: editSchema(def),
      response: { 200: parts.result },
    },
    handler: async (request) => {
      const { reason, version, unArchive, ...fieldEdit } = request.body as Record<
        string,
        unknown
      > & { reason: string; version?: number; unArchive?: boolean };
      const { id } = request.params;
      const scope = scopeOf(request.params);
      const write = { actor: actorOf(request), def, scope, id, reason };
      if (restoring(def, { unArchive }, request.query)) {
        refuseDocumentOnRestore(request);
        return {
          result: await parts.readOf(await db.transaction((tx) => restoreEntity(tx, write))),
        };
      }
      if (version === undefined)
        throw validationError([
          {
            property: 'version',
            constraints: { required: 'The version the edit was made from is required' },
          },
        ]);
      const edit = valuesWithFile(request, def, fieldEdit);
      const save = (inner: Db) =>
        inner.transaction((tx) => updateEntity(tx, { ...write, edit, version }));
      try {
        const saved = await editWithDocument(db, request, def, scope, id, reason, version, save);
        return { result: await parts.readOf(saved) };
      } catch (error) {
        // An edit of a controlled record under review is refused, and audited once rolled back.
        await recordAfterRollback(error, db);
        throw error;
      }
    },
  });
}

const ZArchiveByDelete = z.object({ reason: ZReason }).strict();
const ZArchiveByPut = z.object({
  reason: ZReason,
  confirmImpact: z
    .boolean()
    .optional()
    .describe('The caller has seen where the record is used and which limits change'),
});

/** Archive with a reason: PUT {id}/archive, or DELETE {id}; none where the declaration forbids it. */
export function registerArchiveRoute(context: AppContext, def: EntityDef, parts: EntityRouteParts) {
  if (def.archivable === false) return;
  const { app, db, permit } = context;
  const byDelete = def.verbs === 'put-delete';
  const lower = def.label.toLowerCase();
  typed(app).route({
    method: byDelete ? 'DELETE' : 'PUT',
    url: `/api/v2/plans/:plan/facilities/:facility/${def.path}/:id${byDelete ? '' : '/archive'}`,
    preHandler: permit(def.resource, actionOf(def, 'archive')),
    schema: {
      tags: [def.pluralLabel],
      summary: byDelete
        ? `Archive a ${lower} with a reason (it is kept and can be restored)`
        : `Archive a ${lower} with a reason; archived records are kept and can be restored`,
      ...(byDelete
        ? {}
        : {
            description:
              'Where other records or the limits depend on it (an active in a product, equipment or a product in a production), archiving is refused with a DataValidationError on `confirmImpact` that lists where it is used and which limits change, until the request confirms the impact with `confirmImpact: true`.',
          }),
      params: ZIdInFacility,
      body: byDelete ? ZArchiveByDelete : ZArchiveByPut,
      response: { 200: parts.result },
    },
    handler: async (request) => {
      const body = request.body as { reason: string; confirmImpact?: boolean };
      const archived = await db.transaction((tx) =>
        archiveEntity(tx, {
          actor: actorOf(request),
          def,
          scope: scopeOf(request.params),
          id: request.params.id,
          reason: body.reason,
          confirmImpact: body.confirmImpact,
        }),
      );
      return { result: await parts.readOf(archived) };
    },
  });
}
