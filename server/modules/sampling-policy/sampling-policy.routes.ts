import { z } from 'zod';
import {
  actionOf,
  createSchema,
  recordSchema,
  type EntityDef,
} from '../../../core/entities/entity.ts';
import { fieldSchema, type FieldDef } from '../../../core/entities/field.ts';
import { SAMPLING_POLICY_DEFS } from '../../../core/entities/defs/sampling-policy.def.ts';
import { validationError } from '../../../core/errors/errors.ts';
import { ZFacilityParams } from '../../../core/schemas/auth.schemas.ts';
import { ZListQuery, ZReason, ZVersion, ZId } from '../../../core/schemas/common.schemas.ts';
import { idempotentCreate } from '../../http/idempotency.ts';
import { typed, type AppContext } from '../../http/app-context.ts';
import { actorOf } from '../../http/session-guard.ts';
import { getEntity, listEntities } from '../../entities/entity-store.ts';
import { archiveEntity, restoreEntity } from '../../entities/entity-write.ts';
import { createRecord, editRecord } from './sampling-policy.service.ts';

const F = '/api/v2/plans/:plan/facilities/:facility';
const ZIdParams = ZFacilityParams.extend({ id: ZId });
// `?unarchive` (spec §7) restores an archived record; a bare flag arrives as an empty string.
const ZUnarchiveQuery = z.object({
  unarchive: z
    .string()
    .optional()
    .transform((v) => v !== undefined && v !== 'false')
    .describe('Present (`?unarchive` or `?unarchive=true`): restore the archived record'),
});

function editBody(def: EntityDef) {
  const fields = def.fields.map((f) => [
    f.name,
    fieldSchema({ ...f, required: false } as FieldDef),
  ]);
  return z
    .object({
      ...Object.fromEntries(fields),
      reason: ZReason,
      version: ZVersion.optional(),
      unArchive: z.boolean().optional(),
    })
    .strict();
}

function pageSchema(record: z.ZodType) {
  return z.object({
    data: z.array(record),
    total: z.number().int(),
    pageNumber: z.number().int(),
    pageLimit: z.number().int(),
  });
}

/**
 * Sampling policy and sampling-assessment attributes (spec §7): GET (list), POST, PUT {id}
 * (edit with a reason and a version, or unarchive), DELETE {id} with a reason (archive).
 */
export function registerSamplingPolicyRoutes(context: AppContext): void {
  for (const def of SAMPLING_POLICY_DEFS) registerFor(context, def);
}

function registerFor({ app, db, permit }: AppContext, def: EntityDef): void {
  const r = typed(app);
  const record = recordSchema(def);
  const tags = [def.pluralLabel];
  const lower = def.label.toLowerCase();
  const scopeOf = (p: { plan: number; facility: number }) => ({
    planId: p.plan,
    facilityId: p.facility,
  });

  for (const archived of [false, true]) {
    r.get(
      archived ? `${F}/archived/${def.path}` : `${F}/${def.path}`,
      {
        preHandler: permit(def.resource, actionOf(def, 'get')),
        schema: {
          tags,
          summary: archived
            ? `Archived ${def.pluralLabel.toLowerCase()}`
            : `${def.pluralLabel}, a page at a time`,
          description: def.description,
          params: ZFacilityParams,
          querystring: ZListQuery,
          response: { 200: pageSchema(record) },
        },
      },
      async (request) => listEntities(db, def, request.params.facility, request.query, archived),
    );
  }

  r.get(
    `${F}/${def.path}/:id`,
    {
      preHandler: permit(def.resource, actionOf(def, 'get')),
      schema: { tags, summary: `One ${lower}`, params: ZIdParams, response: { 200: record } },
    },
    async (request) => getEntity(db, def, request.params.facility, request.params.id),
  );

  r.post(
    `${F}/${def.path}`,
    {
      preHandler: permit(def.resource, actionOf(def, 'add')),
      schema: {
        tags,
        summary: `Create a ${lower}`,
        description: def.description,
        params: ZFacilityParams,
        body: createSchema(def),
        response: { 200: z.object({ result: record }) },
      },
    },
    async (request) =>
      idempotentCreate(db, request, async (inner) => ({
        result: await inner.transaction((tx) =>
          createRecord(tx, {
            actor: actorOf(request),
            def,
            scope: scopeOf(request.params),
            values: request.body,
          }),
        ),
      })),
  );

  r.put(
    `${F}/${def.path}/:id`,
    {
      // Unarchiving restores what DELETE archived, so it needs the same right.
      preHandler: async (request, reply) => {
        const body = request.body as { unArchive?: unknown } | undefined;
        const query = request.query as { unarchive?: unknown };
        const restoring =
          body?.unArchive === true ||
          (query.unarchive !== undefined && query.unarchive !== 'false');
        await permit(def.resource, actionOf(def, restoring ? 'archive' : 'modify'))(request, reply);
      },
      schema: {
        tags,
        summary: `Edit a ${lower} (changed fields, version, reason), or unarchive it (?unarchive, reason)`,
        description: `An edit sends the fields it changes, the version it was made from (a stale version gets 409 VersionConflictError) and a reason. With \`?unarchive\` (or \`unArchive: true\` in the body) the archived ${lower} is restored; only the reason is needed. ${def.description}`,
        params: ZIdParams,
        querystring: ZUnarchiveQuery,
        body: editBody(def),
        response: { 200: z.object({ result: record }) },
      },
    },
    async (request) => {
      const { reason, version, unArchive, ...edit } = request.body as Record<string, unknown> & {
        reason: string;
        version?: number;
        unArchive?: boolean;
      };
      const write = {
        actor: actorOf(request),
        def,
        scope: scopeOf(request.params),
        id: request.params.id,
        reason,
      };
      if (unArchive === true || request.query.unarchive)
        return { result: await db.transaction((tx) => restoreEntity(tx, write)) };
      if (version === undefined)
        throw validationError([
          {
            property: 'version',
            constraints: { required: 'The version the edit was made from is required' },
          },
        ]);
      return {
        result: await db.transaction((tx) => editRecord(tx, { ...write, edit, version })),
      };
    },
  );

  r.delete(
    `${F}/${def.path}/:id`,
    {
      preHandler: permit(def.resource, actionOf(def, 'archive')),
      schema: {
        tags,
        summary: `Archive a ${lower} with a reason (it is kept and can be restored)`,
        params: ZIdParams,
        body: z.object({ reason: ZReason }).strict(),
        response: { 200: z.object({ result: record }) },
      },
    },
    async (request) => ({
      result: await db.transaction((tx) =>
        archiveEntity(tx, {
          actor: actorOf(request),
          def,
          scope: scopeOf(request.params),
          id: request.params.id,
          reason: request.body.reason,
        }),
      ),
    }),
  );
}
