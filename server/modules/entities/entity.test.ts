import { beforeAll, describe, expect, it } from 'vitest';
import { ENTITY_DEFS } from '#core/entities/defs/index.ts';
import { columnOf } from '#core/entities/field.ts';
import { buildUser } from '#server/test/factories.ts';
import { facilityPath, setFacilityKind } from '#server/test/test-server.ts';
import { useFacilityTestServer } from '#server/test/facility-test-file.ts';

const t = useFacilityTestServer();
let otherF: string;
beforeAll(async () => {
  await setFacilityKind(t.server, 0, { productType: 'intermediate' });
  otherF = await facilityPath(t.server, 1);
});

const mixer = (name = 'Mixer 1') => ({
  name,
  externalId: `EQ-${name}`,
  surfaceArea: { value: 12.5, unit: 'sqm' },
  material: 'Stainless steel 316L',
  roomGrade: 'C',
});

describe('declared master-data entities', () => {
  it('have a table whose columns match their declaration', async () => {
    for (const def of ENTITY_DEFS) {
      const rows = await t.server.db.query<{ column_name: string }>(
        `select column_name from information_schema.columns where table_name = $1`,
        [def.table],
      );
      const columns = rows.map((r) => r.column_name);
      for (const field of def.fields)
        expect(columns, `${def.table}.${columnOf(field)}`).toContain(columnOf(field));
      for (const common of [
        'facility_id',
        'version',
        'created_at',
        'updated_by',
        'archived_at',
        'archive_reason',
      ]) {
        expect(columns, `${def.table}.${common}`).toContain(common);
      }
    }
  });
});

describe('equipment through the shared entity routes', () => {
  it('refuses a user without the permission, and a facility the user was not granted', async () => {
    const user = await buildUser(t.server.db);
    const as = await t.server.login(user.username, user.password);
    const list = await t.call('GET', `${t.F}/equipments`, undefined, as);
    expect(list.status).toBe(403);
    expect(list.body.errName).toBe('NotAllowed');
    expect((await t.call('POST', `${t.F}/equipments`, mixer('Refused'), as)).status).toBe(403);
    const [first] = await t.server.db.query<{ id: number }>(
      'select id from facilities order by id limit 1',
    );
    const single = await buildUser(t.server.db, { facilityIds: [first!.id] });
    const singleToken = await t.server.login(single.username, single.password);
    expect((await t.call('GET', `${otherF}/equipments`, undefined, singleToken)).status).toBe(403);
  });

  it('creates with validation of units and values, and audits the creation', async () => {
    const created = await t.call('POST', `${t.F}/equipments`, mixer());
    expect(created.status).toBe(200);
    expect(created.body.result).toMatchObject({ ...mixer(), version: 1, archivedAt: null });
    const [audit] = await t.server.db.query<{
      action: string;
      new_values: Record<string, unknown>;
    }>(`select action, new_values from audit_log where domain = 'Equipment' and entity_id = $1`, [
      String(created.body.result.id),
    ]);
    expect(audit).toMatchObject({
      action: 'Create',
      new_values: { name: 'Mixer 1', surfaceArea: { value: 12.5, unit: 'sqm' } },
    });

    const wrongUnit = await t.call('POST', `${t.F}/equipments`, {
      ...mixer('Bad unit'),
      surfaceArea: { value: 1, unit: 'mg' },
    });
    expect(wrongUnit.status).toBe(422);
    expect(wrongUnit.body.errors).toEqual([
      {
        property: 'surfaceArea.unit',
        constraints: { custom: 'must be one of sqcm, sqin, sqm (surface area)' },
      },
    ]);
    const missing = await t.call('POST', `${t.F}/equipments`, { name: 'No area' });
    expect(missing.body.errors.map((e: { property: string }) => e.property)).toEqual([
      'surfaceArea',
    ]);
    const negative = await t.call('POST', `${t.F}/equipments`, {
      ...mixer('Negative'),
      surfaceArea: { value: -3, unit: 'sqcm' },
    });
    expect(negative.body.errors[0].property).toBe('surfaceArea.value');
    const unknownField = await t.call('POST', `${t.F}/equipments`, {
      ...mixer('Extra'),
      colour: 'red',
    });
    expect(unknownField.status).toBe(422);
    expect(unknownField.body.errors).toEqual([
      { property: 'colour', constraints: { unknown: 'is not a field of this request' } },
    ]);
    const [count] = await t.server.db.query<{ n: number }>(
      `select count(*)::int as n from equipment`,
    );
    expect(count?.n).toBe(1);
  });

  it('refuses a duplicate name, whatever its case', async () => {
    const dup = await t.call('POST', `${t.F}/equipments`, mixer('MIXER 1'));
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({
      errName: 'DuplicateEntryError',
      errors: [{ property: 'name' }],
    });
    // The same name in another facility is another item.
    expect((await t.call('POST', `${otherF}/equipments`, mixer('Mixer 1'))).status).toBe(200);
  });

  it('edits with a reason and the version, audits only what changed, and refuses a stale edit', async () => {
    const { body } = await t.call('POST', `${t.F}/equipments`, mixer('Blender'));
    const id = body.result.id;
    const noReason = await t.call('POST', `${t.F}/equipments/${id}`, {
      roomGrade: 'D',
      version: 1,
    });
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors[0].property).toBe('reason');

    const edited = await t.call('POST', `${t.F}/equipments/${id}`, {
      roomGrade: 'D',
      name: 'Blender',
      version: 1,
      reason: 'Moved room',
    });
    expect(edited.status).toBe(200);
    expect(edited.body.result).toMatchObject({ roomGrade: 'D', version: 2 });
    const [audit] = await t.server.db.query<Record<string, unknown>>(
      `select reason, old_values, new_values from audit_log where domain = 'Equipment' and entity_id = $1 and action = 'Update'`,
      [String(id)],
    );
    expect(audit).toEqual({
      reason: 'Moved room',
      old_values: { roomGrade: 'C' },
      new_values: { roomGrade: 'D' },
    });

    const stale = await t.call('POST', `${t.F}/equipments/${id}`, {
      roomGrade: 'A',
      version: 1,
      reason: 'Old screen',
    });
    expect(stale.status).toBe(409);
    expect(stale.body.errName).toBe('VersionConflictError');
    const nothing = await t.call('POST', `${t.F}/equipments/${id}`, {
      roomGrade: 'D',
      version: 2,
      reason: 'Same',
    });
    expect(nothing.body).toMatchObject({
      errName: 'NothingToChangeError',
      message: expect.stringContaining('No changes have been made'),
    });
    expect((await t.call('GET', `${t.F}/equipments/${id}`)).body).toMatchObject({
      roomGrade: 'D',
      version: 2,
    });
  });

  it('archives and unarchives with a reason, and keeps archived names from being reused', async () => {
    const { body } = await t.call('POST', `${t.F}/equipments`, mixer('Dryer'));
    const id = body.result.id;
    expect((await t.call('PUT', `${t.F}/equipments/${id}/archive`, {})).status).toBe(422);
    const archived = await t.call('PUT', `${t.F}/equipments/${id}/archive`, {
      reason: 'Decommissioned',
    });
    expect(archived.body.result).toMatchObject({
      archiveReason: 'Decommissioned',
      archivedAt: expect.any(String),
    });
    const active = await t.call('GET', `${t.F}/equipments?search=dryer`);
    expect(active.body.total).toBe(0);
    const list = await t.call('GET', `${t.F}/archived/equipments?search=dryer`);
    expect(list.body.data.map((e: { id: number }) => e.id)).toEqual([id]);
    const reuse = await t.call('POST', `${t.F}/equipments`, mixer('dryer'));
    expect(reuse.status).toBe(409);
    expect(reuse.body).toMatchObject({
      errName: 'ArchivedEntryError',
      message: expect.stringContaining('Data Archived'),
    });
    const editArchived = await t.call('POST', `${t.F}/equipments/${id}`, {
      roomGrade: 'A',
      version: 2,
      reason: 'x',
    });
    expect(editArchived.body.errName).toBe('ArchivedEntryError');
    const restored = await t.call('POST', `${t.F}/equipments/${id}`, {
      unArchive: true,
      reason: 'Back in service',
    });
    expect(restored.status).toBe(200);
    expect(restored.body.result.archivedAt).toBeNull();
    const actions = await t.server.db.query<{ action: string; reason: string }>(
      `select action, reason from audit_log where domain = 'Equipment' and entity_id = $1 order by seq`,
      [String(id)],
    );
    expect(actions).toEqual([
      { action: 'Create', reason: null },
      { action: 'Archive', reason: 'Decommissioned' },
      { action: 'Unarchive', reason: 'Back in service' },
    ]);
  });

  it('pages, searches and sorts', async () => {
    for (let i = 1; i <= 12; i += 1)
      await t.call('POST', `${t.F}/equipments`, mixer(`Tank ${String(i).padStart(2, '0')}`));
    const first = await t.call('GET', `${t.F}/equipments?search=tank`);
    expect(first.body).toMatchObject({ total: 12, pageNumber: 1, pageLimit: 10 });
    expect(first.body.data).toHaveLength(10);
    const second = await t.call(
      'GET',
      `${t.F}/equipments?search=tank&pageNumber=2&sortBy=name&sortOrder=desc`,
    );
    expect(second.body.data.map((e: { name: string }) => e.name)).toEqual(['Tank 02', 'Tank 01']);
    expect((await t.call('GET', `${t.F}/equipments?search=tank&pageNumber=9`)).body).toMatchObject({
      total: 12,
      data: [],
    });
    expect((await t.call('GET', `${t.F}/equipments?pageLimit=0`)).status).toBe(422);
    expect((await t.call('GET', `${t.F}/equipments?search=100%25`)).body.total).toBe(0);
    expect((await t.call('GET', `${t.F}/equipments/999999`)).body.errName).toBe('NotFoundError');
  });
});

describe('references between entities', () => {
  it('refuses references to unknown or other-facility rows, with the property path', async () => {
    const api = await t.call('POST', `${t.F}/apis`, {
      name: 'Drug X',
      pde: { value: 5, unit: 'ug' },
    });
    expect(api.status).toBe(200);
    const foreign = await t.call('POST', `${otherF}/apis`, { name: 'Drug Y' });
    const product = {
      name: 'Tablet X',
      maxDailyDose: { value: 400, unit: 'mg' },
      minBatchSize: { value: 100, unit: 'kg' },
      actives: [
        { activeId: api.body.result.id, amount: { value: 10, unit: 'mg' } },
        { activeId: foreign.body.result.id, amount: { value: 5, unit: 'mg' } },
      ],
    };
    const refused = await t.call('POST', `${t.F}/products`, product);
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      {
        property: 'actives[1].activeId',
        constraints: { reference: 'No such active in this facility (archived or removed)' },
      },
    ]);
    const ok = await t.call('POST', `${t.F}/products`, {
      ...product,
      actives: product.actives.slice(0, 1),
    });
    expect(ok.status).toBe(200);
    const production = await t.call('POST', `${t.F}/productions`, {
      name: 'Line 1',
      productIds: [ok.body.result.id],
      equipmentIds: [424242],
    });
    expect(production.body.errors[0].property).toBe('equipmentIds');
  });
});

describe('entities with the specification’s own answers', () => {
  it('lists intermediates under `intermediates` and archived ones under `result`', async () => {
    const created = await t.call('POST', `${t.F}/intermediates`, {
      name: 'Stage 2 ester',
      pde: { value: 3, unit: 'mg' },
    });
    expect(created.body.result).toMatchObject({ name: 'Stage 2 ester' });
    const list = await t.call('GET', `${t.F}/intermediates`);
    expect(list.body).toMatchObject({ intermediates: [{ name: 'Stage 2 ester' }], total: 1 });
    await t.call('PUT', `${t.F}/intermediates/${created.body.result.id}/archive`, {
      reason: 'Process retired',
    });
    expect((await t.call('GET', `${t.F}/archived/intermediates`)).body).toMatchObject({
      result: [{ name: 'Stage 2 ester' }],
    });
  });

  it('validates list rows of an analytical method by their path', async () => {
    const method = {
      name: 'TOC swab',
      testType: 'TOC',
      loq: { value: 0.5, unit: 'ppm' },
      recoveries: [
        { material: 'Glass', recoveryPercentage: 85 },
        { material: 'Glass', recoveryPercentage: 120 },
      ],
    };
    const refused = await t.call('POST', `${t.F}/analytical-method`, method);
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].property).toBe('recoveries[1].recoveryPercentage');
    const wrongTest = await t.call('POST', `${t.F}/analytical-method`, {
      ...method,
      testType: 'HPLC',
      recoveries: [],
    });
    expect(wrongTest.body.errors[0].property).toBe('testType');
    const ok = await t.call('POST', `${t.F}/analytical-method`, {
      ...method,
      recoveries: method.recoveries.slice(0, 1),
    });
    expect(ok.body.result.recoveries).toEqual([{ material: 'Glass', recoveryPercentage: 85 }]);
  });
});

describe('races the service checks cannot see', () => {
  it('answers two simultaneous creations of one name with one record and one DuplicateEntryError', async () => {
    const results = await Promise.all([
      t.call('POST', `${t.F}/equipments`, mixer('Twin')),
      t.call('POST', `${t.F}/equipments`, mixer('Twin')),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.errName).toBe('DuplicateEntryError');
  });
});
