import { beforeAll, describe, expect, it } from 'vitest';
import type { EntityDef } from '#core/entities/entity.ts';
import type { Queryable } from '../db/db.ts';
import type { Actor } from '../db/audit-write.ts';
import { useFacilityTestServer } from '../test/facility-test-file.ts';
import { getEntity } from './entity-store.ts';
import { archiveEntity, createEntity, restoreEntity, updateEntity } from './entity-write.ts';

// Declarations over existing tables, to drive the store's plan and parent scopes directly.
const planRecordDef: EntityDef = {
  key: 'scopeProbePlan',
  label: 'Department',
  pluralLabel: 'Departments',
  path: 'scope-probe-plan',
  table: 'departments',
  resource: 'Department',
  // The table's own domain: a declaration's domain is a catalogued one (core/audit/audit-events.ts).
  domain: 'Department',
  scope: 'plan',
  fields: [{ name: 'name', label: 'Name', kind: 'text', required: true }],
  unique: ['name'],
  search: ['name'],
  listColumns: ['name'],
  description: 'Plan-scoped probe',
};

const childRecordDef: EntityDef = {
  key: 'scopeProbeChild',
  label: 'Sample',
  pluralLabel: 'Samples',
  path: 'scope-probe-child',
  table: 'samples',
  resource: 'Equipment',
  domain: 'Sample',
  scope: { parent: 'samplingLocationId' },
  fields: [
    { name: 'equipmentId', label: 'Equipment', kind: 'integer', required: true },
    { name: 'samplingLocationId', label: 'Location', kind: 'integer', required: true },
    { name: 'name', label: 'Name', kind: 'text', required: true },
    { name: 'sampleType', label: 'Type', kind: 'enum', options: ['swab', 'rinse'], required: true },
  ],
  unique: ['name'],
  search: ['name'],
  listColumns: ['name'],
  description: 'Child-scoped probe',
};

const t = useFacilityTestServer();
let actor: Actor;
let planId: number;
let facilityId: number;
beforeAll(async () => {
  ({ facilityId, planId } = t);
  const [admin] = await t.server.db.query<{ id: number }>('select min(id) as id from users');
  actor = { userId: admin!.id, userName: 'admin', ip: null, userAgent: null, requestId: null };
});

const inTx = <T>(fn: (tx: Queryable) => Promise<T>) => t.server.db.transaction(fn);

describe('The record store', () => {
  it('writes plan-scoped records by plan_id, unique in the plan, versioned and audited', async () => {
    const scope = { planId };
    const def = planRecordDef;
    const made = await inTx((tx) =>
      createEntity(tx, { actor, def, scope, values: { name: 'QA' } }),
    );
    expect(made).toMatchObject({ planId, name: 'QA', version: 1, archivedAt: null });
    const twice = inTx((tx) => createEntity(tx, { actor, def, scope, values: { name: 'qa' } }));
    await expect(twice).rejects.toMatchObject({ errName: 'DuplicateEntryError' });
    const edit = { actor, def, scope, id: made.id, reason: 'Renamed', edit: { name: 'Quality' } };
    const edited = await inTx((tx) => updateEntity(tx, { ...edit, version: 1 }));
    expect(edited).toMatchObject({ name: 'Quality', version: 2 });
    const stale = inTx((tx) => updateEntity(tx, { ...edit, version: 1 }));
    await expect(stale).rejects.toMatchObject({ errName: 'VersionConflictError' });
    const write = { actor, def, scope, id: made.id, reason: 'Merged' };
    expect(await inTx((tx) => archiveEntity(tx, write))).toMatchObject({ version: 3 });
    expect(await inTx((tx) => restoreEntity(tx, write))).toMatchObject({ archivedAt: null });
    expect(await getEntity(t.server.db, def, planId, made.id)).toMatchObject({ version: 4 });
    const audit = await t.server.db.query<{ action: string; facility_id: number | null }>(
      `select action, facility_id from audit_log where domain = 'Department' and entity_id = $1 order by id`,
      [String(made.id)],
    );
    expect(audit.map((a) => a.action)).toEqual(['Create', 'Update', 'Archive', 'Unarchive']);
    expect(audit.every((a) => a.facility_id === null)).toBe(true);
  });

  it('keeps child records unique under their parent, which the scope names', async () => {
    const call = (method: string, path: string, body?: unknown) =>
      t.server.request<Record<string, any>>(method, path, { token: t.token, body }); // eslint-disable-line @typescript-eslint/no-explicit-any -- checked by assertions
    const equipment = await call('POST', `${t.F}/equipments`, {
      name: 'Blender B1',
      surfaceArea: { value: 2, unit: 'sqm' },
    });
    const equipmentId = equipment.body.result.id as number;
    const L = `${t.F}/equipments/${equipmentId}/sampling-locations`;
    const locations = await call('POST', L, {
      data: [
        { name: 'Lid', sampleType: 'swab' },
        { name: 'Outlet', sampleType: 'swab' },
      ],
    });
    const [lid, outlet] = locations.body.result.map((l: { id: number }) => l.id) as number[];
    const def = childRecordDef;
    const values = { equipmentId, name: 'S1', sampleType: 'swab' };
    const under = (parentId: number) => ({ planId, facilityId, parentId });
    const first = await inTx((tx) => createEntity(tx, { actor, def, scope: under(lid!), values }));
    expect(first).toMatchObject({ facilityId, samplingLocationId: lid, name: 'S1' });
    // The same name under another location is another sample; under the same one, a duplicate.
    await inTx((tx) => createEntity(tx, { actor, def, scope: under(outlet!), values }));
    const twice = inTx((tx) => createEntity(tx, { actor, def, scope: under(lid!), values }));
    await expect(twice).rejects.toMatchObject({ errName: 'DuplicateEntryError' });
  });
});
