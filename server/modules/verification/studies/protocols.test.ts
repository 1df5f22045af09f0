import { beforeAll, describe, expect, it } from 'vitest';
import { recordCreator } from '#server/test/create-record.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { putInForce } from '#server/test/policy-in-force.ts';
import { ADMIN } from '#server/test/test-server.ts';

/* Protocols as a declared controlled record (core/verification/README.md). */

const t = useFacilityTestServer();
let line: number;
let product: number;
let seq = 0;

const protocolBody = (extra: Record<string, unknown> = {}) => {
  seq += 1;
  return { protocolNumber: `PR-${seq}`, name: `Protocol ${seq}`, ...extra };
};

beforeAll(async () => {
  const create = recordCreator(t.server, t.token, t.F);
  const api = await create('apis', { name: 'Alpha', pde: { value: 0.001, unit: 'mg' } });
  product = await create('products', {
    name: 'A',
    maxDailyDose: { value: 1000, unit: 'mg' },
    minBatchSize: { value: 100, unit: 'kg' },
    actives: [{ activeId: api, amount: { value: 10, unit: 'mg' } }],
  });
  const e1 = await create('equipments', { name: 'E1', surfaceArea: { value: 1, unit: 'sqm' } });
  line = await create('productions', { name: 'Line 1', equipmentIds: [e1], productIds: [product] });
});

const createProtocol = (body: Record<string, unknown>, as?: string) =>
  t.call('POST', `${t.F}/protocols`, body, as);

describe('protocols', () => {
  it('creates a protocol as version 1 being built, with its fields and an audit row', async () => {
    const res = await createProtocol(
      protocolBody({
        studyType: 'Validation',
        productionId: line,
        productIds: [product],
        requiredPasses: 3,
        limitBasis: 'productWise',
        allowReleaseAtRisk: true,
        dirtyHoldMaxHours: 48,
      }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const p = res.body.result as Body;
    expect(p).toMatchObject({
      studyType: 'Validation',
      productionId: line,
      productIds: [product],
      limitBasis: 'productWise',
      allowReleaseAtRisk: true,
      dirtyHoldMaxHours: 48,
      status: 'BeingBuilt',
      versionNumber: 1,
    });
    const [audit] = await t.server.db.query<Body>(
      `select action from audit_log where domain = 'Protocol' and entity_id = $1`,
      [p.id],
    );
    expect(audit?.action).toBe('Create');
    const list = await t.call('GET', `${t.F}/protocols?search=${p.protocolNumber}`);
    expect(list.body.data.map((r: Body) => r.id)).toEqual([p.id]);
  });

  it('needs a justification for fewer than 3 consecutive passing runs', async () => {
    const refused = await createProtocol(protocolBody({ requiredPasses: 2 }));
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      {
        property: 'passesJustification',
        constraints: { required: 'Fewer than 3 consecutive passing runs needs a justification' },
      },
    ]);
    const justified = await createProtocol(
      protocolBody({ requiredPasses: 2, passesJustification: 'Bracketed with PR-1' }),
    );
    expect(justified.status).toBe(200);
    // Taking the justification away later is refused too.
    const p = justified.body.result as Body;
    const edit = await t.call('POST', `${t.F}/protocols/${p.id}`, {
      passesJustification: null,
      reason: 'Tidy',
      version: p.version,
    });
    expect(edit.status).toBe(422);
    expect(edit.body.errors[0].property).toBe('passesJustification');
  });

  it('checks the sampling plan and the limits snapshot belong to the facility', async () => {
    const plan = await createProtocol(
      protocolBody({
        samplingPlan: [{ samplingLocationId: 999_999, sampleType: 'swab', analyticalMethodId: 1 }],
      }),
    );
    expect(plan.status).toBe(422);
    expect(plan.body.errors.map((e: Body) => e.property)).toContain(
      'samplingPlan[0].samplingLocationId',
    );
    const snapshot = await createProtocol(protocolBody({ limitsSnapshotId: 999_999 }));
    expect(snapshot.status).toBe(422);
    expect(snapshot.body.errors).toEqual([
      {
        property: 'limitsSnapshotId',
        constraints: { reference: 'No such limits snapshot in this facility' },
      },
    ]);
    const [own] = await t.server.db.query<{ id: number }>(
      `insert into limits_snapshots (facility_id, document_type, document_id, version_number,
         input, input_hash, output_hash)
       values ($1, 'CleaningLimitPolicy', 1, 1, '{}', 'x', 'y') returning id`,
      [t.facilityId],
    );
    const ok = await createProtocol(protocolBody({ limitsSnapshotId: own!.id }));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.result.limitsSnapshotId).toBe(own!.id);
  });

  it('is approved by signatures; an edit then starts version 2 while 1 stays in force', async () => {
    const created = (await createProtocol(protocolBody({ productIds: [product] }))).body
      .result as Body;
    const approved = await putInForce(
      t.server,
      t.F,
      { token: t.token, password: ADMIN.password },
      'Protocol',
      created.id,
    );
    expect(approved.document.status).toBe('Approved');
    const current = (await t.call('GET', `${t.F}/protocols/${created.id}`)).body;
    const edit = await t.call('POST', `${t.F}/protocols/${created.id}`, {
      name: 'Protocol revised',
      reason: 'Second location',
      version: current.version,
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(edit.body.result).toMatchObject({ status: 'BeingBuilt', versionNumber: 2 });
    const versions = await t.server.db.query<{ version_number: number; status: string }>(
      `select version_number, status from controlled_versions
        where document_type = 'Protocol' and document_id = $1 order by version_number`,
      [created.id],
    );
    expect(versions).toEqual([
      { version_number: 1, status: 'Approved' },
      { version_number: 2, status: 'BeingBuilt' },
    ]);
    const kept = await t.call('GET', `${t.F}/protocols/${created.id}/versions`);
    expect(kept.body.versions.length).toBeGreaterThanOrEqual(2);
  });

  it('archives with QualificationTask Delete and refuses a user without QualificationTask', async () => {
    const created = (await createProtocol(protocolBody())).body.result as Body;
    const archive = await t.call('PUT', `${t.F}/protocols/${created.id}/archive`, {
      reason: 'Superseded',
    });
    expect(archive.status, JSON.stringify(archive.body)).toBe(200);
    const user = await buildUser(t.server.db, {
      permissions: permissionsWith({ CleaningProcedure: ['Get', 'Add', 'Modify'] }),
    });
    const token = await t.server.login(user.username, user.password);
    expect((await t.call('GET', `${t.F}/protocols`, undefined, token)).status).toBe(403);
    expect((await createProtocol(protocolBody(), token)).status).toBe(403);
  });
});
