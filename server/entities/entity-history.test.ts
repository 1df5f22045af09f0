import { setFacilityKind } from '../test/test-server.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENTITY_DEFS, entityDef } from '#core/entities/defs/index.ts';
import type { EntityDef } from '#core/entities/entity.ts';
import type { FieldDef } from '#core/entities/field.ts';
import { MEASURES } from '#core/units/measures.ts';
import { seedDemo } from '#server/cli/seed-demo.ts';
import type { Actor } from '../db/audit-write.ts';
import { useFacilityTestServer } from '../test/facility-test-file.ts';
import { madeBeforeHistory as madeBefore } from '../test/before-history.ts';
import { allEntities, getEntity } from './entity-store.ts';
import { tableAsOf } from './entity-history.ts';
import { createEntity, updateEntity } from './entity-write.ts';
import { createLocations } from '../modules/equipment-extras/sampling-locations.service.ts';
import { signIntoForce } from '../test/factories/signed-record.ts';

const t = useFacilityTestServer();
let scope: { planId: number; facilityId: number };
const actor: Actor = {
  userId: null,
  userName: 'history test',
  ip: null,
  userAgent: null,
  requestId: null,
};

beforeAll(async () => {
  // An API plant has every declared entity: intermediates, and the API productions' mappings.
  await setFacilityKind(t.server, 0, { productType: 'api' });
  scope = { planId: t.planId, facilityId: t.facilityId };
  await seedDemo(t.server.db, scope.facilityId);
});

let made = 0;
const TEXT_CANDIDATES = ['Item', '2026-01-15', 'x1', '1'];

/** A value the field accepts; a reference creates (or reuses) a record of its target. */
async function valueOf(field: FieldDef): Promise<unknown> {
  made += 1;
  switch (field.kind) {
    case 'text':
    case 'longText': {
      const check = field.kind === 'text' || field.kind === 'longText' ? field.check : undefined;
      if (!check) return `${field.label} ${made}.5`;
      return TEXT_CANDIDATES.find((c) => check(c) === undefined) ?? `${made}`;
    }
    // Numbers with every binary digit used, which a lossy round trip would change.
    case 'number':
      return 0.1 + 0.2;
    case 'integer':
      // A protocol's snapshot must be one of the facility's (server/modules/verification).
      return field.name === 'limitsSnapshotId' ? limitsSnapshot() : 3;
    case 'boolean':
      return true;
    case 'enum':
      return field.options[0];
    case 'quantity':
      return { value: 1 / 3, unit: MEASURES[field.measure].allowed[0] };
    case 'reference': {
      const target = await someRecord(entityDef(field.entity));
      return field.multiple ? [target] : target;
    }
    case 'list': {
      const item: Record<string, unknown> = {};
      for (const sub of field.of) item[sub.name] = await valueOf(sub);
      return [item];
    }
  }
}

async function limitsSnapshot(): Promise<number> {
  const [row] = await t.server.db.query<{ id: number }>(
    `insert into limits_snapshots (facility_id, document_type, document_id, version_number,
       input, input_hash, output_hash)
     values ($1, 'CleaningLimitPolicy', 1, 1, '{}', 'x', 'y') returning id`,
    [scope.facilityId],
  );
  return row!.id;
}

async function someRecord(def: EntityDef): Promise<number> {
  const [existing] = await allEntities(t.server.db, def, scope.facilityId);
  if (existing) return existing.id;
  // A location (referenced by a protocol's sampling plan) is its module's record: it is made
  // there, on an equipment, not from made-up values of its fields.
  if (def.key === 'samplingLocations') {
    const equipmentId = await someRecord(entityDef('equipment'));
    const fields = { name: `Location ${made}`, sampleType: 'swab' as const };
    const [location] = await t.server.db.transaction((tx) =>
      createLocations(tx, actor, scope, equipmentId, [{ fields, at: '' }], undefined),
    );
    return location!.id;
  }
  const values: Record<string, unknown> = {};
  for (const field of def.fields) values[field.name] = await valueOf(field);
  // A substance at an API step is an active or an intermediate, never both (its declaration's check).
  if (def.key === 'apiStepSubstances') values.intermediateId = null;
  const { id } = await t.server.db.transaction((tx) =>
    createEntity(tx, { actor, def, scope, values }),
  );
  // A protocol or a production names an equipment train only once it is approved (issue 32).
  if (def.key === 'equipmentTrains')
    await signIntoForce(t.server, scope, { documentType: 'EquipmentTrain', documentId: id });
  return id;
}

describe('records read as of a moment', () => {
  it('are exactly the records the live read gives, for every declared entity', async () => {
    for (const def of ENTITY_DEFS) await someRecord(def);
    const [{ now }] = (await t.server.db.query<{ now: string }>(
      `select to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as now`,
    )) as [{ now: string }];
    for (const def of ENTITY_DEFS) {
      const live = await allEntities(t.server.db, def, scope.facilityId);
      expect(live.length, def.key).toBeGreaterThan(0);
      const then = await allEntities(t.server.db, def, scope.facilityId, { asOf: now });
      expect(then, def.key).toEqual(live);
      const one = live[0]!;
      expect(
        await getEntity(t.server.db, def, scope.facilityId, one.id, false, { asOf: now }),
      ).toEqual(one);
      const versions = await t.server.request<{ versions: Array<{ values: unknown }> }>(
        'GET',
        `${t.F}/${def.path}/${one.id}/versions`,
        { token: t.token },
      );
      expect(versions.status, def.key).toBe(200);
      expect(versions.body.versions.at(-1)!.values, def.key).toEqual(
        JSON.parse(JSON.stringify(one)),
      );
    }
  });

  it('give the facility as it was for the limits input, whatever changed after', async () => {
    const def = entityDef('equipment');
    const before = await allEntities(t.server.db, def, scope.facilityId);
    const [{ asOf }] = (await t.server.db.query<{ asOf: string }>(
      `select to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "asOf"`,
    )) as [{ asOf: string }];
    // The changes below commit at a later millisecond than asOf (PGlite's clock counts them).
    await t.server.db.query('select pg_sleep(0.002)');
    const first = before[0]!;
    await t.server.db.transaction(async (tx) => {
      await updateEntity(tx, {
        actor,
        def,
        scope,
        id: first.id,
        edit: { material: 'Changed later' },
        reason: 'test',
      });
    });
    await t.server.db.transaction((tx) =>
      createEntity(tx, {
        actor,
        def,
        scope,
        values: { name: 'Added later', surfaceArea: { value: 1, unit: 'sqm' } },
      }),
    );
    const now = await allEntities(t.server.db, def, scope.facilityId);
    expect(now.length).toBe(before.length + 1);
    expect(await allEntities(t.server.db, def, scope.facilityId, { asOf })).toEqual(before);
  });
});

describe('reads before a record’s history began', () => {
  const def = entityDef('equipment');

  /** A record made before versions were kept (before-history.ts), in this file's facility. */
  const madeBeforeHistory = (name: string, createdAt: string, updatedAt: string) =>
    madeBefore(t.server.db, scope, name, createdAt, updatedAt);

  it('answer its earliest kept version with historyStartsAt, and 404 only before it existed', async () => {
    const id = await madeBeforeHistory(
      'Before history',
      '2020-01-01T00:00:00Z',
      '2024-01-01T00:00:00Z',
    );
    const read = (asOf: string) =>
      t.server.request<Record<string, unknown>>(
        'GET',
        `${t.F}/${def.path}/${id}?asOf=${encodeURIComponent(asOf)}`,
        { token: t.token },
      );

    const then = await read('2022-06-01T00:00:00Z');
    expect(then.status).toBe(200);
    expect(then.body).toMatchObject({
      id,
      name: 'Before history',
      historyStartsAt: '2024-01-01T00:00:00.000000Z',
    });
    // Within its history nothing of the kind is said.
    const later = await read('2024-06-01T00:00:00Z');
    expect(later.status).toBe(200);
    expect(later.body).toMatchObject({ id, name: 'Before history' });
    expect(later.body).not.toHaveProperty('historyStartsAt');
    // Before it existed it was not there.
    const never = await read('2019-06-01T00:00:00Z');
    expect(never.status).toBe(404);
    expect(never.body.errName).toBe('NotFoundError');
  });

  it('count it in the facility as of a moment that limits and reports read, and the MAC matrix says so', async () => {
    const id = await madeBeforeHistory(
      'Counted before history',
      '2020-01-01T00:00:00Z',
      '2024-01-01T00:00:00Z',
    );
    const facilityAsOf = async (asOf: string) =>
      (await allEntities(t.server.db, def, scope.facilityId, { asOf })).find((r) => r.id === id);
    expect(await facilityAsOf('2022-06-01T00:00:00Z')).toMatchObject({
      name: 'Counted before history',
      historyStartsAt: '2024-01-01T00:00:00.000000Z',
    });
    expect(await facilityAsOf('2024-06-01T00:00:00Z')).not.toHaveProperty('historyStartsAt');
    expect(await facilityAsOf('2019-06-01T00:00:00Z')).toBeUndefined();
    // What reports join as of a moment (tableAsOf) holds it too, as first kept.
    const joined = async (asOf: string) =>
      t.server.db.query<{ name: string }>(
        `select name from ${tableAsOf('equipment', 1, 2)} where id = $3`,
        [scope.facilityId, asOf, id],
      );
    expect(await joined('2022-06-01T00:00:00Z')).toEqual([{ name: 'Counted before history' }]);
    expect(await joined('2019-06-01T00:00:00Z')).toEqual([]);

    const matrix = (asOf: string) =>
      t.server.request<Record<string, unknown>>(
        'GET',
        `${t.F}/mac-matrix?summary=true&asOf=${encodeURIComponent(asOf)}`,
        { token: t.token },
      );
    const then = await matrix('2022-06-01T00:00:00Z');
    expect(then.status).toBe(200);
    expect(then.body.historyStartsAt).toBe('2024-01-01T00:00:00.000000Z');
    const within = await matrix('2024-06-01T00:00:00Z');
    expect(within.status).toBe(200);
    expect(within.body).not.toHaveProperty('historyStartsAt');
  });

  it('say so in the limits reports and views as of a moment, and only then', async () => {
    await madeBeforeHistory(
      'Reported before history',
      '2020-01-01T00:00:00Z',
      '2025-01-01T00:00:00Z',
    );
    const routes = [
      'limits/equipment',
      'limits/worst-case-ranking',
      'limits/input',
      'limits/worst-cases',
      'limits/cleaning-agents',
      'mac-matrix/pairs',
      // Sent as a cached text past the response schema (mac-grid.ts), so it says so itself.
      'mac-matrix/grid',
    ];
    for (const route of routes) {
      const at = async (asOf: string) => {
        const { status, body } = await t.server.request<Record<string, unknown>>(
          'GET',
          `${t.F}/${route}?asOf=${encodeURIComponent(asOf)}`,
          { token: t.token },
        );
        expect(status, route).toBe(200);
        return body;
      };
      // The latest moment a record read was first kept: this one's, after the earlier tests'.
      expect((await at('2022-06-01T00:00:00Z')).historyStartsAt, route).toBe(
        '2025-01-01T00:00:00.000000Z',
      );
      expect(await at('2025-06-01T00:00:00Z'), route).not.toHaveProperty('historyStartsAt');
      const today = await t.server.request('GET', `${t.F}/${route}`, { token: t.token });
      expect(today.body, route).not.toHaveProperty('historyStartsAt');
    }
  });

  it('list it as of a moment from its earliest kept version, saying so, beside records within their history', async () => {
    const changedLater = await madeBeforeHistory(
      'Listed before history',
      '2020-01-01T00:00:00Z',
      '2024-01-01T00:00:00Z',
    );
    const changedBefore = await madeBeforeHistory(
      'Listed within history',
      '2020-01-01T00:00:00Z',
      '2021-01-01T00:00:00Z',
    );
    const list = async (asOf: string) => {
      const { status, body } = await t.server.request<{
        data: Record<string, unknown>[];
        total: number;
      }>(
        'GET',
        `${t.F}/${def.path}?search=Listed&asOf=${encodeURIComponent(asOf)}&sortBy=name&sortOrder=asc`,
        { token: t.token },
      );
      expect(status).toBe(200);
      return body;
    };

    const then = await list('2022-06-01T00:00:00Z');
    expect(then.total).toBe(2);
    expect(then.data).toMatchObject([
      {
        id: changedLater,
        name: 'Listed before history',
        historyStartsAt: '2024-01-01T00:00:00.000000Z',
      },
      { id: changedBefore, name: 'Listed within history' },
    ]);
    expect(then.data[1]).not.toHaveProperty('historyStartsAt');
    // Within both histories nothing of the kind is said.
    const later = await list('2024-06-01T00:00:00Z');
    expect(later.data.map((r) => r.id)).toEqual([changedLater, changedBefore]);
    for (const record of later.data) expect(record).not.toHaveProperty('historyStartsAt');
    // Before they existed they were not there.
    expect(await list('2019-06-01T00:00:00Z')).toMatchObject({ data: [], total: 0 });
  });
});
