import { ENTITY_DEFS } from '#core/entities/defs/index.ts';
import {
  ZApiPropertiesResponse,
  ZArchivePropertyDefinition,
  ZCreatePropertyDefinition,
  ZEditPropertyDefinition,
  ZPropertyDefinitionResponse,
  ZPropertyDefinitionsResponse,
  ZPropertyKeyParams,
  ZPropertyTargetParams,
  type PropertyTarget,
} from '#core/schemas/additional-properties.schemas.ts';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { idempotentCreate } from '#server/http/idempotency.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf } from '#server/http/session-guard.ts';
import { apiProperties } from './api-properties.ts';
import {
  createDefinition,
  listDefinitions,
  setDefinitionArchived,
  updateDefinition,
} from './additional-properties.service.ts';
import { editOrRestore } from '#server/http/permission-guards.ts';
import type { GuardResource } from '#core/permissions/permission-map.ts';

const F = '/api/v2/plans/:plan/facilities/:facility';
const tags = ['additional properties'];

function resourceOf(target: PropertyTarget): GuardResource {
  const def = ENTITY_DEFS.find((d) => d.propertyTarget === target);
  return def?.resource ?? 'Facility';
}

/**
 * Definitions are managed with the Facility resource of the permission map (spec §6). Whoever
 * may read the entity also reads its definitions, since its form is built from them.
 */
export function registerAdditionalPropertyRoutes({ app, db, permit, permitAny }: AppContext): void {
  const r = typed(app);

  const readers = permitAny((request) => {
    const { target } = request.params as { target: PropertyTarget };
    return [
      ['Facility', 'Get'],
      [resourceOf(target), 'Get'],
    ];
  });

  r.get(
    `${F}/additional-properties/:target`,
    {
      preHandler: readers,
      schema: {
        tags,
        summary: "The facility's additional property definitions for one entity",
        description:
          'Definitions of the properties users may add to actives (api), intermediates, products or productions, archived ones included (their values stay readable). Facility Get, or Get of the entity.',
        params: ZPropertyTargetParams,
        response: { 200: ZPropertyDefinitionsResponse },
      },
    },
    async (request) => ({
      definitions: await listDefinitions(db, request.params, request.params.target),
    }),
  );

  r.post(
    `${F}/additional-properties/:target`,
    {
      preHandler: permit('Facility', 'Add'),
      schema: {
        tags,
        summary: 'Define an additional property (Facility Add)',
        description:
          'Key (a stable slug, made from the label when not given), label, kind (text, number, quantity with a measure, date, select with options), required flag and help text.',
        params: ZPropertyTargetParams,
        body: ZCreatePropertyDefinition,
        response: { 200: ZPropertyDefinitionResponse },
      },
    },
    async (request) =>
      idempotentCreate(db, request, async (tx) => ({
        result: await createDefinition(
          tx,
          actorOf(request),
          request.params,
          request.params.target,
          request.body,
        ),
      })),
  );

  for (const method of ['POST', 'PUT'] as const) {
    r.route({
      method,
      url: `${F}/additional-properties/:target/:key`,
      // Restoring an archived definition needs the right that archived it.
      preHandler: permit('Facility', editOrRestore('Delete')),
      schema: {
        tags,
        summary:
          'Edit an additional property definition with a reason and the version it was made from, or restore it (unArchive)',
        description:
          'Label, options, required flag and help text can change; key, kind and measure cannot, since recorded values were checked against them. Facility Modify (Facility Delete to restore).',
        params: ZPropertyKeyParams,
        body: ZEditPropertyDefinition,
        response: { 200: ZPropertyDefinitionResponse },
      },
      handler: async (request) => ({
        result: await updateDefinition(
          db,
          actorOf(request),
          request.params,
          request.params.target,
          request.params.key,
          request.body,
        ),
      }),
    });
  }

  r.put(
    `${F}/additional-properties/:target/:key/archive`,
    {
      preHandler: permit('Facility', 'Delete'),
      schema: {
        tags,
        summary: 'Archive an additional property definition with a reason (Facility Delete)',
        description:
          'The definition is never deleted: values already recorded stay readable, and no new values can be entered.',
        params: ZPropertyKeyParams,
        body: ZArchivePropertyDefinition,
        response: { 200: ZPropertyDefinitionResponse },
      },
    },
    async (request) => ({
      result: await setDefinitionArchived(
        db,
        actorOf(request),
        request.params,
        request.params.target,
        request.params.key,
        true,
        request.body.reason,
      ),
    }),
  );

  r.get(
    `${F}/api-properties`,
    {
      preHandler: permit('API', 'Get'),
      schema: {
        tags,
        summary: 'The properties an active (API) carries',
        description:
          "The built-in properties (PDE/ADE, minimum therapeutic dose, LD50, solubility, cleanability, potency band, acceptable intake…) with their measures and units, followed by the facility's active additional API properties, so that a form or an import template can be built from them.",
        params: ZFacilityParams,
        response: { 200: ZApiPropertiesResponse },
      },
    },
    async (request) => ({ properties: await apiProperties(db, request.params) }),
  );
}
