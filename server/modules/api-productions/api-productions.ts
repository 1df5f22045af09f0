import {
  apiProcessStepsDef,
  apiProductionsDef,
  apiStepSubstancesDef,
} from '#core/entities/defs/index.ts';
import { validationError } from '#core/errors/errors.ts';
import type { Queryable } from '#server/db/db.ts';
import { onAfterSave, onBeforeArchive, onBeforeSave } from '#server/entities/archive-hooks.ts';
import { facilityScope } from '#server/entities/entity-scope.ts';

/*
 * The rules of an API facility's mappings (issue 32) that need the database: a process has one
 * step per number, a substance is mapped to a step of its own production and once per step, and
 * nothing live hangs from an archived production or step (21 CFR 211.188 / ICH Q7 §6.5: the
 * record of a process says which equipment each step used and what was made on it; a mapping
 * to a record nobody can open says nothing).
 */

interface Named {
  id: number;
  name: string;
  archived_at: unknown;
}

async function production(q: Queryable, facilityId: number, id: number) {
  const [row] = await q.query<Named>(
    `select id, name, archived_at from api_productions where facility_id = $1 and id = $2`,
    [facilityId, id],
  );
  return row;
}

async function step(q: Queryable, facilityId: number, id: number) {
  const [row] = await q.query<Named & { api_production_id: number; step_number: number }>(
    `select id, name, step_number, api_production_id, archived_at from api_process_steps
      where facility_id = $1 and id = $2`,
    [facilityId, id],
  );
  return row;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** How many live rows of `table` name the record through `column`. */
async function liveChildren(
  q: Queryable,
  table: 'api_process_steps' | 'api_step_substances',
  column: 'api_production_id' | 'step_id',
  parent: { facilityId: number; id: number },
): Promise<number> {
  const [row] = await q.query<{ n: number }>(
    `select count(*)::int as n from ${table}
      where facility_id = $1 and ${column} = $2 and archived_at is null`,
    [parent.facilityId, parent.id],
  );
  return row?.n ?? 0;
}

const inUse = (message: string) =>
  validationError([{ property: 'id', constraints: { inUse: message } }]);

/** Registers the hooks (once; again only replaces them). */
export function registerApiProductions(): void {
  // Steps are numbered in process order; two live steps with one number leave the order open.
  onBeforeSave(apiProcessStepsDef.key, 'step-order', async (q, _def, scope, { record, id }) => {
    const inFacility = facilityScope(apiProcessStepsDef, scope);
    if (!inFacility) return;
    const [other] = await q.query<{ name: string }>(
      `select name from api_process_steps
        where facility_id = $1 and api_production_id = $2 and step_number = $3
          and archived_at is null and ($4::int is null or id <> $4)`,
      [inFacility.facilityId, Number(record.apiProductionId), Number(record.stepNumber), id],
    );
    if (!other) return;
    throw validationError([
      {
        property: 'stepNumber',
        constraints: {
          unique: `Step ${String(record.stepNumber)} of this API production is already '${other.name}'; give this step another number`,
        },
      },
    ]);
  });

  // A substance is present at a step of its own production, and is mapped there once.
  onBeforeSave(apiStepSubstancesDef.key, 'step', async (q, _def, scope, { record, id }) => {
    const inFacility = facilityScope(apiStepSubstancesDef, scope);
    if (!inFacility) return;
    const found = await step(q, inFacility.facilityId, Number(record.stepId));
    if (found && found.api_production_id !== record.apiProductionId) {
      const owner = await production(q, inFacility.facilityId, found.api_production_id);
      throw validationError([
        {
          property: 'stepId',
          constraints: {
            production: `The step '${found.name}' is a step of the API production '${owner?.name ?? ''}', not of this one`,
          },
        },
      ]);
    }
    const [twice] = await q.query<{ id: number }>(
      `select id from api_step_substances
        where facility_id = $1 and step_id = $2 and archived_at is null
          and active_id is not distinct from $3::int and intermediate_id is not distinct from $4::int
          and ($5::int is null or id <> $5)`,
      [
        inFacility.facilityId,
        Number(record.stepId),
        typeof record.activeId === 'number' ? record.activeId : null,
        typeof record.intermediateId === 'number' ? record.intermediateId : null,
        id,
      ],
    );
    if (twice)
      throw validationError([
        {
          property: record.activeId ? 'activeId' : 'intermediateId',
          constraints: { unique: 'This substance is already mapped to this step' },
        },
      ]);
  });

  // A step or mapping restored under an archived parent would hang from nothing.
  onAfterSave(apiProcessStepsDef.key, 'parent', async (q, _def, scope, { record }) => {
    const inFacility = facilityScope(apiProcessStepsDef, scope);
    if (!inFacility) return;
    const parent = await production(q, inFacility.facilityId, Number(record.apiProductionId));
    if (parent && parent.archived_at !== null)
      throw validationError([
        {
          property: 'apiProductionId',
          constraints: {
            archived: `Its API production '${parent.name}' is archived: restore the production first`,
          },
        },
      ]);
  });
  onAfterSave(apiStepSubstancesDef.key, 'parent', async (q, _def, scope, { record }) => {
    const inFacility = facilityScope(apiStepSubstancesDef, scope);
    if (!inFacility) return;
    const parent = await step(q, inFacility.facilityId, Number(record.stepId));
    if (parent && parent.archived_at !== null)
      throw validationError([
        {
          property: 'stepId',
          constraints: {
            archived: `Its process step '${parent.name}' is archived: restore the step first`,
          },
        },
      ]);
  });

  // What hangs from a production or a step is archived first, each with its own reason.
  onBeforeArchive(apiProductionsDef.key, 'steps', async (q, _def, scope, record) => {
    const n = await liveChildren(q, 'api_process_steps', 'api_production_id', {
      facilityId: scope.facilityId,
      id: record.id,
    });
    if (n > 0)
      throw inUse(
        `This API production has ${plural(n, 'live process step', 'live process steps')}; archive ${n === 1 ? 'it' : 'them'} first`,
      );
  });
  onBeforeArchive(apiProcessStepsDef.key, 'substances', async (q, _def, scope, record) => {
    const n = await liveChildren(q, 'api_step_substances', 'step_id', {
      facilityId: scope.facilityId,
      id: record.id,
    });
    if (n > 0)
      throw inUse(
        `This process step has ${plural(n, 'substance', 'substances')} mapped to it; archive ${n === 1 ? 'that mapping' : 'those mappings'} first`,
      );
  });
}
