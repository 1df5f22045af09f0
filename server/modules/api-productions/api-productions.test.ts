import { beforeAll, describe, expect, it } from 'vitest';
import {
  auditRowsOf,
  tokenWith,
  useFacilityTestServer,
  type TestBody,
} from '#server/test/facility-test-file.ts';
import {
  buildActive,
  buildEquipment,
  buildProduct,
  recordFactory,
  type FactoryScope,
} from '#server/test/factories/entities.ts';
import { facilityPath } from '#server/test/test-server.ts';

/*
 * The mappings of an API facility (issue 32): API productions (ApiProduction), their process
 * steps with equipment (ApiEquipment) and the substances at each step (ApiProduct). The seed's
 * second facility is an API plant (api, lite); the first, a finished-dose plant, has none.
 */

const t = useFacilityTestServer();
let F: string;
let scope: FactoryScope;
let api: number;
let intermediate: number;
let reactor: number;
let dryer: number;
let otherFacilityMill: number;

const productions = () => `${F}/api-productions`;
const steps = () => `${F}/api-equipment`;
const substances = () => `${F}/api-products`;

/**
 * Rows of the three tables and the audit rows of their changes: what a refused call must not
 * move (its refusal is audited as AccessRefused, not as a change).
 */
async function footprint() {
  const [row] = await t.server.db.query<TestBody>(
    `select (select count(*)::int from api_productions) as productions,
            (select count(*)::int from api_process_steps) as steps,
            (select count(*)::int from api_step_substances) as substances,
            (select coalesce(sum(version), 0)::int from api_process_steps) as step_versions,
            (select count(*)::int from audit_log
              where domain in ('ApiProduction', 'ApiEquipment', 'ApiProduct')
                and action <> 'AccessRefused') as audits`,
  );
  return row!;
}

async function created(path: string, body: Record<string, unknown>, as = t.token) {
  const res = await t.call('POST', path, body, as);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result as TestBody;
}

let sequence = 0;
async function newProduction(name = `Process ${++sequence}`) {
  return created(productions(), { name, activeId: api });
}

beforeAll(async () => {
  F = await facilityPath(t.server, 1);
  const facilityId = Number(/facilities\/(\d+)$/.exec(F)![1]);
  const [row] = await t.server.db.query<{ plan_id: number; product_type: string }>(
    'select plan_id, product_type from facilities where id = $1',
    [facilityId],
  );
  expect(row!.product_type).toBe('api');
  scope = { planId: row!.plan_id, facilityId };
  api = (await buildActive(t.server.db, scope, { name: 'Metformin HCl' })).id;
  intermediate = await recordFactory(t.server.db, scope)('intermediates', {
    name: 'Cyanoguanidine adduct',
  });
  reactor = (await buildEquipment(t.server.db, scope, { name: 'R-101 reactor' })).id;
  dryer = (await buildEquipment(t.server.db, scope, { name: 'D-201 dryer' })).id;
  otherFacilityMill = (
    await buildEquipment(t.server.db, { planId: scope.planId, facilityId: t.facilityId })
  ).id;
});

describe('API productions: only in API facilities', () => {
  it('refuses the calls in a finished-dose facility with 403 naming its product type', async () => {
    for (const path of ['api-productions', 'api-equipment', 'api-products']) {
      const res = await t.call('GET', `${t.F}/${path}`);
      expect(res.status, path).toBe(403);
      expect(res.body).toMatchObject({
        errName: 'NotAllowed',
        message: 'API productions are not available for product facilities',
      });
    }
    expect((await t.call('GET', productions())).status).toBe(200);
  });
});

describe('API productions: documented', () => {
  it('lists the calls in the OpenAPI document with their schemas', async () => {
    const doc = await t.server.request<{
      paths: Record<string, Record<string, { tags?: string[]; requestBody?: unknown }>>;
    }>('GET', '/api/docs/json');
    const base = '/api/v2/plans/{plan}/facilities/{facility}';
    for (const [path, tag] of [
      ['api-productions', 'API productions'],
      ['api-equipment', 'API process steps'],
      ['api-products', 'API step substances'],
    ] as const) {
      const list = doc.body.paths[`${base}/${path}`];
      expect(list?.get?.tags, path).toEqual([tag]);
      expect(list?.post?.requestBody, path).toBeDefined();
      expect(doc.body.paths[`${base}/${path}/{id}`]?.post?.requestBody, path).toBeDefined();
    }
  });
});

describe('API productions: guarded by ApiProduction, ApiEquipment and ApiProduct', () => {
  it.each([
    ['ApiProduction', 'api-productions'],
    ['ApiEquipment', 'api-equipment'],
    ['ApiProduct', 'api-products'],
  ])(
    '%s: Get to read, Add to create, Modify to edit, Delete to archive',
    async (resource, path) => {
      const production = await newProduction();
      const step = await created(steps(), {
        apiProductionId: production.id,
        stepNumber: 1,
        name: 'Reaction',
        equipmentIds: [reactor],
      });
      const bodies: Record<string, [Record<string, unknown>, Record<string, unknown>]> = {
        'api-productions': [
          { name: `Guarded ${resource}`, activeId: api },
          { description: 'Two-stage synthesis' },
        ],
        'api-equipment': [
          {
            apiProductionId: production.id,
            stepNumber: 2,
            name: 'Drying',
            equipmentIds: [dryer],
          },
          { name: 'Vacuum drying' },
        ],
        'api-products': [
          { apiProductionId: production.id, stepId: step.id, activeId: api },
          { note: 'Wet cake' },
        ],
      };
      const [body, change] = bodies[path]!;
      const base = `${F}/${path}`;
      const nobody = await tokenWith(t, { Production: ['Get'] }, [scope.facilityId]);
      const reader = await tokenWith(t, { [resource]: ['Get'] }, [scope.facilityId]);
      const adder = await tokenWith(t, { [resource]: ['Get', 'Add'] }, [scope.facilityId]);
      const modifier = await tokenWith(t, { [resource]: ['Get', 'Modify'] }, [scope.facilityId]);
      const deleter = await tokenWith(t, { [resource]: ['Get', 'Delete'] }, [scope.facilityId]);

      expect((await t.call('GET', base, undefined, nobody)).status).toBe(403);
      expect((await t.call('GET', base, undefined, reader)).status).toBe(200);
      const before = await footprint();
      expect((await t.call('POST', base, body, reader)).status).toBe(403);
      expect((await t.call('POST', base, body, modifier)).status).toBe(403);
      expect((await t.call('POST', base, body, deleter)).status).toBe(403);
      expect(await footprint()).toEqual(before);
      const [refusal] = await t.server.db.query<TestBody>(
        `select domain from audit_log where action = 'AccessRefused' order by id desc limit 1`,
      );
      expect(refusal).toEqual({ domain: resource });
      const record = await created(base, body, adder);
      const one = `${base}/${record.id}`;
      expect((await t.call('GET', one, undefined, nobody)).status).toBe(403);
      expect((await t.call('GET', one, undefined, reader)).status).toBe(200);
      expect((await t.call('GET', `${one}/versions`, undefined, reader)).status).toBe(200);

      const edit = { ...change, version: 1, reason: 'Clarified' };
      expect((await t.call('POST', one, edit, adder)).status).toBe(403);
      expect((await t.call('POST', one, edit, deleter)).status).toBe(403);
      expect((await t.call('POST', one, edit, modifier)).status).toBe(200);

      const archive = { reason: 'No longer made' };
      expect((await t.call('PUT', `${one}/archive`, archive, modifier)).status).toBe(403);
      expect((await t.call('PUT', `${one}/archive`, archive, deleter)).status).toBe(200);
      // The refused calls changed nothing: the record's trail is its three changes.
      const rows = await auditRowsOf(t, resource, record.id);
      expect(rows.map((r) => r.action)).toEqual(['Create', 'Update', 'Archive']);
    },
  );
});

describe('API productions: the records', () => {
  it('maps a process: steps in order with their equipment and the substances at each, audited', async () => {
    const production = await newProduction('Metformin route A');
    const reaction = await created(steps(), {
      apiProductionId: production.id,
      stepNumber: 1,
      name: 'Reaction',
      equipmentIds: [reactor],
    });
    const drying = await created(steps(), {
      apiProductionId: production.id,
      stepNumber: 2,
      name: 'Drying',
      equipmentIds: [dryer, reactor],
    });
    const adduct = await created(substances(), {
      apiProductionId: production.id,
      stepId: reaction.id,
      intermediateId: intermediate,
      note: 'Reaction mass',
    });
    await created(substances(), {
      apiProductionId: production.id,
      stepId: drying.id,
      activeId: api,
    });

    const list = await t.call('GET', `${steps()}?pageLimit=100`);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    const mine = (list.body.data as TestBody[]).filter((s) => s.apiProductionId === production.id);
    expect(mine.map((s) => [s.stepNumber, s.name, s.equipmentIds])).toEqual([
      [2, 'Drying', [dryer, reactor]],
      [1, 'Reaction', [reactor]],
    ]);

    expect(await auditRowsOf(t, 'ApiProduction', production.id)).toMatchObject([
      { action: 'Create', new_values: { name: 'Metformin route A', activeId: api } },
    ]);
    expect(await auditRowsOf(t, 'ApiProduct', adduct.id)).toMatchObject([
      {
        action: 'Create',
        new_values: { stepId: reaction.id, intermediateId: intermediate, note: 'Reaction mass' },
      },
    ]);

    // An edit names the version it was made from: a stale one is 409 and changes nothing.
    const moved = await t.call('POST', `${steps()}/${drying.id}`, {
      equipmentIds: [dryer],
      version: 1,
      reason: 'The reactor is not used for drying',
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const before = await footprint();
    const stale = await t.call('POST', `${steps()}/${drying.id}`, {
      equipmentIds: [reactor],
      version: 1,
      reason: 'Edited from an old screen',
    });
    expect(stale.status).toBe(409);
    expect(stale.body.errName).toBe('VersionConflictError');
    expect(await footprint()).toEqual(before);
    expect((await auditRowsOf(t, 'ApiEquipment', drying.id)).at(-1)).toMatchObject({
      action: 'Update',
      reason: 'The reactor is not used for drying',
      old_values: { equipmentIds: [dryer, reactor] },
      new_values: { equipmentIds: [dryer] },
    });
    const versions = await t.call('GET', `${steps()}/${drying.id}/versions`);
    expect(versions.status).toBe(200);
  });

  it('refuses bad mappings with 422 on the field, changing nothing', async () => {
    const production = await newProduction();
    const other = await newProduction();
    const reaction = await created(steps(), {
      apiProductionId: production.id,
      stepNumber: 1,
      name: 'Reaction',
      equipmentIds: [reactor],
    });
    const otherStep = await created(steps(), {
      apiProductionId: other.id,
      stepNumber: 1,
      name: 'Milling',
      equipmentIds: [dryer],
    });
    await created(substances(), {
      apiProductionId: production.id,
      stepId: reaction.id,
      activeId: api,
    });
    const oldCentrifuge = (await buildEquipment(t.server.db, scope, { name: 'Old centrifuge' })).id;
    expect(
      (await t.call('PUT', `${F}/equipments/${oldCentrifuge}/archive`, { reason: 'Scrapped' }))
        .status,
    ).toBe(200);
    const archived = await newProduction();
    expect(
      (await t.call('PUT', `${productions()}/${archived.id}/archive`, { reason: 'Withdrawn' }))
        .status,
    ).toBe(200);

    const step = (values: Record<string, unknown>) => ({
      apiProductionId: production.id,
      stepNumber: 2,
      name: 'Crystallisation',
      equipmentIds: [reactor],
      ...values,
    });
    // [path, body, field, text]; 422 DataValidationError unless the case names another answer.
    const cases: [string, Record<string, unknown>, string, string, number?][] = [
      [steps(), step({ equipmentIds: [] }), 'equipmentIds', 'at least one item'],
      [steps(), step({ equipmentIds: [999999] }), 'equipmentIds', 'No such equipment'],
      [steps(), step({ equipmentIds: [otherFacilityMill] }), 'equipmentIds', 'No such equipment'],
      [steps(), step({ equipmentIds: [oldCentrifuge] }), 'equipmentIds', 'archived'],
      [steps(), step({ equipmentIds: [reactor, reactor] }), 'equipmentIds', 'twice'],
      [steps(), step({ stepNumber: 1 }), 'stepNumber', "already 'Reaction'"],
      [steps(), step({ stepNumber: 0 }), 'stepNumber', ''],
      [steps(), step({ apiProductionId: archived.id }), 'apiProductionId', 'archived'],
      [productions(), { name: production.name, activeId: api }, 'name', 'already exists', 409],
      [productions(), { name: 'No API' }, 'activeId', ''],
      [
        substances(),
        { apiProductionId: production.id, stepId: reaction.id },
        'activeId',
        'Choose the active or the intermediate',
      ],
      [
        substances(),
        {
          apiProductionId: production.id,
          stepId: reaction.id,
          activeId: api,
          intermediateId: intermediate,
        },
        'activeId',
        'not both',
      ],
      [
        substances(),
        { apiProductionId: production.id, stepId: reaction.id, activeId: api },
        'activeId',
        'already mapped',
      ],
      [
        substances(),
        { apiProductionId: production.id, stepId: otherStep.id, activeId: api },
        'stepId',
        `of the API production '${other.name}'`,
      ],
    ];
    const before = await footprint();
    for (const [path, body, property, text, status = 422] of cases) {
      const res = await t.call('POST', path, body);
      expect(res.status, JSON.stringify({ body, res: res.body })).toBe(status);
      expect(
        res.body.errors.map((e: TestBody) => e.property),
        JSON.stringify(res.body),
      ).toContain(property);
      expect(JSON.stringify(res.body.errors)).toContain(text);
    }
    // An edit that would number two steps alike is refused the same way.
    const second = await created(steps(), step({ stepNumber: 2 }));
    const after = await footprint();
    const clash = await t.call('POST', `${steps()}/${second.id}`, {
      stepNumber: 1,
      version: 1,
      reason: 'Renumbered',
    });
    expect(clash.status).toBe(422);
    expect(clash.body.errors[0].property).toBe('stepNumber');
    expect(await footprint()).toEqual(after);
    expect(after.productions).toBe(before.productions);
    expect(after.steps).toBe(before.steps + 1);
  });

  it('archives what hangs from a production first, and restores nothing under an archived parent', async () => {
    const production = await newProduction();
    const reaction = await created(steps(), {
      apiProductionId: production.id,
      stepNumber: 1,
      name: 'Reaction',
      equipmentIds: [reactor],
    });
    const mapping = await created(substances(), {
      apiProductionId: production.id,
      stepId: reaction.id,
      activeId: api,
    });
    const archive = (path: string) => t.call('PUT', `${path}/archive`, { reason: 'Withdrawn' });
    const restore = async (path: string) =>
      t.call('POST', path, {
        unArchive: true,
        version: (await t.call('GET', path)).body.version,
        reason: 'Made again',
      });
    const productionPath = `${productions()}/${production.id}`;
    const stepPath = `${steps()}/${reaction.id}`;
    const mappingPath = `${substances()}/${mapping.id}`;

    const refused = await archive(productionPath);
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body.errors)).toContain('1 live process step');
    const stepRefused = await archive(stepPath);
    expect(stepRefused.status).toBe(422);
    expect(JSON.stringify(stepRefused.body.errors)).toContain('1 substance');

    expect((await archive(mappingPath)).status).toBe(200);
    expect((await archive(stepPath)).status).toBe(200);
    expect((await archive(productionPath)).status).toBe(200);

    const orphan = await restore(mappingPath);
    expect(orphan.status).toBe(422);
    expect(orphan.body.errors[0]).toMatchObject({ property: 'stepId' });
    expect((await restore(stepPath)).status).toBe(422);
    expect((await t.call('GET', stepPath)).body.archivedAt).not.toBeNull();

    expect((await restore(productionPath)).status).toBe(200);
    expect((await restore(stepPath)).status).toBe(200);
    expect((await restore(mappingPath)).status).toBe(200);
    expect((await auditRowsOf(t, 'ApiEquipment', reaction.id)).map((r) => r.action)).toEqual([
      'Create',
      'Archive',
      'Unarchive',
    ]);
  });
});

describe('API productions: in the limits input', () => {
  it('gives a product of each API the equipment of its process steps, shared where steps share it', async () => {
    const other = (await buildActive(t.server.db, scope, { name: 'Glipizide' })).id;
    const amount = { value: 500, unit: 'mg' };
    const metformin = await buildProduct(t.server.db, scope, {
      actives: [{ activeId: api, amount }],
    });
    const glipizide = await buildProduct(t.server.db, scope, {
      actives: [{ activeId: other, amount }],
    });
    const trainsOf = async () => {
      const res = await t.call('GET', `${F}/limits/input`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.input.trains as Record<string, string[]>;
    };
    expect((await trainsOf())[String(glipizide.name)]).toBeUndefined();

    const route = await created(productions(), { name: 'Glipizide route', activeId: other });
    await created(steps(), {
      apiProductionId: route.id,
      stepNumber: 1,
      name: 'Drying',
      equipmentIds: [dryer],
    });
    const trains = await trainsOf();
    // Metformin's processes of the tests above run on the reactor and the dryer; glipizide's on
    // the dryer alone, which is the surface the two share.
    expect([...trains[String(metformin.name)]!].sort()).toEqual(['D-201 dryer', 'R-101 reactor']);
    expect(trains[String(glipizide.name)]).toEqual(['D-201 dryer']);
  });
});
